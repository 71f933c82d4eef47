import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseChain } from '../chain/parse.ts';
import type { Chain } from '../chain/schema.ts';
import { runChain } from '../engine/run.ts';
import type { Assembly } from '../steps/assemble.ts';
import { assemblyProgress } from '../steps/assembly-progress.ts';
import { stepRegistry } from '../steps/index.ts';
import type { TraceEvent } from '../trace/events.ts';
import { createMemoryRunRepository, type RunRepository } from '../trace/repository.ts';
import { findDefects, type DemoDefect } from './demo-defects.ts';
import { createDemoProvider } from './demo-model.ts';
import { demoProfile, runModelSettings } from './profiles.ts';
import { loadTokenCounter, type TokenCounter } from './tokenizer.ts';
import type { ModelProvider } from './types.ts';
import { createOpenAIProvider } from './openai.ts';
import { createMockModelServer, type MockModelServer } from '../testing/mock-server.ts';
import { defaultReply } from '../testing/mock-tools.ts';

/**
 * Seed 004's two-pass design on the demo contract and the offline demo model: the writers per
 * group, one reader over the assembled whole that returns a defect list, and a repair that
 * reruns only the groups the reader named, once. Also partial delivery and resume on the
 * one-pass chain (split → map → assemble).
 */
const demoDir = new URL('../../public/demo/', import.meta.url);
const read = (file: string) => readFileSync(new URL(file, demoDir), 'utf8');

function load(file: string): Chain {
  const parsed = parseChain(read(file), stepRegistry);
  if (parsed.ok) return parsed.chain;
  throw new Error(parsed.problems.map((p) => `${p.path} ${p.message}`).join('; '));
}

function inputsOf(chain: Chain): Record<string, unknown> {
  const files = (chain.meta?.inputFiles ?? {}) as Record<string, string>;
  return Object.fromEntries(chain.inputs.map((i) => [i.name, files[i.name] ? read(files[i.name] as string) : i.example]));
}

/** The demo model, counting the calls it is sent per step (the unit is in the prompt's clause ids). */
function countingProvider(): { provider: ModelProvider; calls: string[] } {
  const inner = createDemoProvider();
  const calls: string[] = [];
  return { calls, provider: { ...inner, call: (request, ctx) => (calls.push(request.contract?.name ?? 'text'), inner.call(request, ctx)) } };
}

type Finished = Extract<TraceEvent, { type: 'step.finished' }>;
type Attempt = Extract<TraceEvent, { type: 'step.attempt' }>;

let countTokens: TokenCounter;
beforeAll(async () => void (countTokens = await loadTokenCounter()));

async function run(chain: Chain, opts: { repo?: RunRepository; provider?: ModelProvider; runId?: string; resume?: { events: TraceEvent[] }; signal?: AbortSignal } = {}) {
  const repo = opts.repo ?? createMemoryRunRepository();
  const meta = await runChain({ chain, inputs: inputsOf(chain), provider: opts.provider ?? createDemoProvider(), model: runModelSettings(demoProfile), repo, countTokens, runId: opts.runId, resume: opts.resume, signal: opts.signal });
  const events = await repo.getEvents(meta.id);
  const output = <T>(id: string) => events.find((e): e is Finished => e.type === 'step.finished' && e.stepId === id)?.output as T;
  const attempts = (id: string) => events.filter((e): e is Attempt => e.type === 'step.attempt' && e.stepId === id);
  return { meta, events, output, attempts };
}

describe('the two-pass contract rewrite on the demo model', () => {
  const chain = load('contract-rewrite-two-pass.chain.json');

  it('finds real defects, reruns exactly the named groups once, and the final document has them replaced', async () => {
    const { provider, calls } = countingProvider();
    const { meta, events, output, attempts } = await run(chain, { provider });
    expect(meta.status).toBe('succeeded');
    const split = output<{ groups: { group_key: string; unit_ids: string[] }[] }>('split');
    const groupOf = new Map(split.groups.flatMap((g) => g.unit_ids.map((id) => [id, g.group_key] as const)));
    const draft = output<Assembly>('draft');
    expect(draft.complete).toBe(true);

    // The reader's defects: each names its clause and the group that clause is in.
    const { defects } = output<{ defects: DemoDefect[] }>('reader');
    expect(defects.length).toBeGreaterThan(0);
    for (const d of defects) expect(groupOf.get(d.clause_id), d.clause_id).toBe(d.group_key);
    // A real one, found by comparing texts: the original defines "VerticalNet Content"; the
    // writer of the definitions group calmed "VERTICALNET CONTENT" to "Verticalnet Content".
    expect(defects).toContainEqual(expect.objectContaining({ clause_id: '1.52', kind: 'terminology', found: 'Verticalnet Content', expected: 'VerticalNet Content' }));
    expect(draft.clauses.find((c) => c.id === '1.52')?.rewrite).toContain('Verticalnet Content');

    // Calls: every group written once, one reader call, then exactly the named groups, once each.
    const named = [...new Set(defects.map((d) => d.group_key))];
    expect(named.length).toBeLessThan(split.groups.length);
    expect(attempts('rewrite').map((a) => a.unit)).toEqual(expect.arrayContaining(split.groups.map((g) => g.group_key)));
    expect(attempts('rewrite')).toHaveLength(split.groups.length);
    expect(attempts('reader')).toHaveLength(1);
    expect(attempts('repair').map((a) => a.unit).sort()).toEqual([...named].sort());
    expect(calls.filter((c) => c === 'group_rewrite')).toHaveLength(split.groups.length);
    // Each repair call is handed its own group's defects and no other group's.
    for (const a of attempts('repair')) {
      const prompt = a.record.messages.map((m) => m.content).join('\n');
      for (const d of defects) expect(prompt.includes(JSON.stringify(d.note).slice(1, -1)), `${a.unit} ⟷ ${d.clause_id}`).toBe(d.group_key === a.unit);
    }
    expect(calls.filter((c) => c === 'defect_list')).toHaveLength(1);
    expect(calls.filter((c) => c === 'group_repair')).toHaveLength(named.length);

    // The final document: the named groups replaced, the rest as drafted, every clause once in order.
    const final = meta.output as Assembly;
    expect(final.complete).toBe(true);
    expect(final.replaced_groups.sort()).toEqual([...named].sort());
    expect(final.clauses.map((c) => c.id)).toEqual(draft.clauses.map((c) => c.id));
    for (const c of final.clauses) if (!named.includes(c.group_key)) expect(c.rewrite).toBe(draft.clauses.find((d) => d.id === c.id)?.rewrite);
    expect(final.clauses.find((c) => c.id === '1.52')?.rewrite).toContain('VerticalNet Content');
    expect(final.document).not.toContain('Verticalnet Content');
    // Read again, the repaired document has none of the terminology defects the first read found.
    const left = findDefects([final.clauses])?.filter((d) => d.kind === 'terminology') ?? [];
    expect(left).toEqual([]);
    // The replay's assembled pane, once the run is over, shows the final document (with the repairs), not the draft.
    const [shown] = assemblyProgress(chain, events);
    expect([shown?.stepId, shown?.contiguous, shown?.total]).toEqual(['assemble', split.groups.length, split.groups.length]);
    expect(shown?.text).toBe(final.document);
    expect(shown?.groups.filter((g) => g.replaced).map((g) => g.group_key).sort()).toEqual([...named].sort());
  });
});

/** A repository that stops persisting (and aborts the run) once `killAt` map units are durable: a closed tab. */
function crashingRepo(inner: RunRepository, killAt: number, controller: AbortController): RunRepository {
  let units = 0;
  let dead = false;
  return {
    ...inner,
    async appendEvents(runId, events) {
      if (dead) return;
      await inner.appendEvents(runId, events);
      units += events.filter((e) => e.type === 'step.unit').length;
      if (units >= killAt) {
        dead = true;
        controller.abort();
      }
    },
    async updateRun(id, patch) {
      if (!dead) await inner.updateRun(id, patch);
    },
  };
}

describe('split → map → assemble: partial delivery and resume', () => {
  it.each([
    ['contract-rewrite.chain.json', 'group_rewrite'],
    ['contract-rewrite-two-pass.chain.json', 'group_rewrite'],
  ])('%s interrupted after 4 groups shows them assembled from the top, and the resume reruns only the missing groups', async (file, writer) => {
    const chain = load(file);
    const store = createMemoryRunRepository();
    const controller = new AbortController();
    const first = countingProvider();
    const interrupted = await run(chain, { repo: crashingRepo(store, 4, controller), provider: first.provider, signal: controller.signal });
    const atCrash = await store.getEvents(interrupted.meta.id);
    const doneAtCrash = new Set(atCrash.flatMap((e) => (e.type === 'step.unit' ? [e.unitId] : [])));
    expect(doneAtCrash.size).toBeGreaterThanOrEqual(4);
    // The partial document from the durable trace: the top groups, in clause order.
    const [progress] = assemblyProgress(chain, atCrash);
    expect(progress?.contiguous).toBeGreaterThanOrEqual(1);
    expect(progress?.text.startsWith('1 Definitions.')).toBe(true);
    expect(progress?.groups.filter((g) => g.status === 'pending').length).toBe((progress?.total ?? 0) - doneAtCrash.size);

    const second = countingProvider();
    const resumed = await run(chain, { repo: store, provider: second.provider, runId: interrupted.meta.id, resume: { events: atCrash } });
    expect(resumed.meta.status).toBe('succeeded');
    const total = (resumed.output<{ group_count: number }>('split')).group_count;
    expect(second.calls.filter((c) => c === writer)).toHaveLength(total - doneAtCrash.size);
    const rerun = resumed.events.slice(atCrash.length).flatMap((e) => (e.type === 'step.attempt' && e.stepId === 'rewrite' ? [e.unit] : []));
    expect(rerun.some((u) => u !== undefined && doneAtCrash.has(u))).toBe(false);
    const [done] = assemblyProgress(chain, resumed.events);
    expect([done?.contiguous, done?.total, done?.finished]).toEqual([total, total, true]);
    expect((resumed.meta.output as Assembly).complete).toBe(true);
  });
});

describe('the two-pass chain against the mock OpenAI server', () => {
  let server: MockModelServer;
  beforeAll(async () => void (server = await createMockModelServer()));
  afterAll(() => server.close());

  it('reruns only the one group the reader names, once, and the final document takes its repair', async () => {
    const chain = load('contract-rewrite-two-pass.chain.json');
    let named: { group_key: string; clause_id: string } | null = null;
    server.reset();
    // The reader's reply is scripted: one defect, in the third group (its key and a clause of
    // it read from the request the engine sent). Every other call is the mock's default model.
    server.setResponder((call) => {
      const schema = call.schema as { properties?: { defects?: { items?: { properties?: { group_key?: { enum?: string[] } } } } } } | null;
      const keys = schema?.properties?.defects?.items?.properties?.group_key?.enum;
      if (!keys) return defaultReply(call);
      const key = keys[2] as string;
      const clause = new RegExp(`"id":\\s*"([^"]+)",\\s*"group_key":\\s*"${key}"`).exec(call.messages.map((m) => m.content).join('\n'))?.[1] as string;
      named = { group_key: key, clause_id: clause };
      return { content: { defects: [{ ...named, kind: 'cross_reference', found: '', expected: 'Section 3', note: `The rewrite of ${clause} drops its reference.` }] } };
    });
    const provider = createOpenAIProvider({ baseUrl: `${server.url}/v1`, apiKey: 'k' });
    const repo = createMemoryRunRepository();
    const meta = await runChain({ chain, inputs: inputsOf(chain), provider, model: { name: 'mock', maxOutputTokens: 4000, structuredOutput: true }, repo, countTokens });
    expect(meta.status).toBe('succeeded');
    expect(named).not.toBeNull();
    const schemaName = (r: { body: unknown }) => (r.body as { response_format?: { json_schema?: { name?: string } } }).response_format?.json_schema?.name;
    const sent = server.requests.filter((r) => r.path.endsWith('/chat/completions'));
    const events = await repo.getEvents(meta.id);
    const groups = (events.find((e): e is Finished => e.type === 'step.finished' && e.stepId === 'split')?.output as { group_count: number }).group_count;
    expect(sent.filter((r) => schemaName(r) === 'group_rewrite')).toHaveLength(groups);
    expect(sent.filter((r) => schemaName(r) === 'defect_list')).toHaveLength(1);
    const repairs = sent.filter((r) => schemaName(r) === 'group_repair');
    expect(repairs).toHaveLength(1);
    expect(JSON.stringify(repairs[0]?.body)).toContain(named!.clause_id);
    expect(events.filter((e) => e.type === 'step.attempt' && e.stepId === 'repair').map((e) => (e as Attempt).unit)).toEqual([named!.group_key]);
    const final = meta.output as Assembly;
    expect(final.replaced_groups).toEqual([named!.group_key]);
    expect(final.complete).toBe(true);
  });
});
