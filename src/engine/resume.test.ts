import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Chain } from '../chain/schema.ts';
import { createOpenAIProvider } from '../providers/openai.ts';
import { createMockModelServer, type MockModelServer } from '../testing/mock-server.ts';
import type { TraceEvent } from '../trace/events.ts';
import { createMemoryRunRepository, type RunRepository } from '../trace/repository.ts';
import { runChain } from './run.ts';

/**
 * A run interrupted at any point (closed tab, reload, crash) resumes where it stopped without
 * repeating a completed model call. The "crash" stops persistence the moment the k-th step
 * (or unit) is durable, exactly as a closed tab would, and aborts the run.
 */
const schema = { type: 'object', properties: { note: { type: 'string' } }, required: ['note'], additionalProperties: false };

function sequentialChain(n: number): Chain {
  return {
    format: 'seamscope.chain', version: 1, id: 'seq', name: 'Sequential',
    inputs: [{ name: 'topic', schema: { type: 'string' }, trust: 'trusted', required: true }],
    steps: Array.from({ length: n }, (_, i) => ({
      id: `s${i + 1}`, kind: 'model', name: `Step ${i + 1}`, position: { x: i * 280, y: 0 },
      config: i === 0
        ? { bindings: { topic: 'inputs.topic' }, prompt: 'Step 1 on {topic}', outputSchema: schema }
        : { bindings: { prev: `steps.s${i}.note` }, prompt: `Step ${i + 1} after: {prev}`, outputSchema: schema },
    })),
  };
}

function mapChain(units: number, concurrency: number): Chain {
  return {
    format: 'seamscope.chain', version: 1, id: 'map', name: 'Map',
    inputs: [{ name: 'items', schema: { type: 'array' }, trust: 'trusted', required: true }],
    steps: [{
      id: 'per_item', kind: 'map', name: 'Per item', position: { x: 0, y: 0 },
      config: { bindings: { items: 'inputs.items' }, itemName: 'item', unitIdField: 'id', concurrency, prompt: 'Unit {item.id}: {item.text}', outputSchema: schema },
    }],
    meta: { units },
  };
}

/** A repository view that goes dark (drops every later write) once `killAt` matching events are durable. */
function crashingRepo(inner: RunRepository, isMilestone: (e: TraceEvent) => boolean, killAt: number, controller: AbortController): RunRepository {
  let seen = 0;
  let dead = false;
  return {
    ...inner,
    async appendEvents(runId, events) {
      if (dead) return;
      await inner.appendEvents(runId, events);
      seen += events.filter(isMilestone).length;
      if (seen >= killAt) {
        dead = true;
        controller.abort();
      }
    },
    async updateRun(id, patch) {
      if (!dead) await inner.updateRun(id, patch);
    },
  };
}

let server: MockModelServer;
beforeAll(async () => {
  server = await createMockModelServer();
});
afterAll(() => server.close());

const completions = () => server.requests.filter((r) => r.path.endsWith('/chat/completions'));
const model = { name: 'mock', maxOutputTokens: 512, structuredOutput: true };
const countTokens = (t: string) => Math.ceil(t.length / 4);

async function interruptAndResume(chain: Chain, inputs: Record<string, unknown>, isMilestone: (e: TraceEvent) => boolean, killAt: number) {
  const provider = createOpenAIProvider({ baseUrl: `${server.url}/v1`, apiKey: 'k' });
  const store = createMemoryRunRepository();
  const controller = new AbortController();
  server.reset();
  const first = await runChain({ chain, inputs, provider, model, countTokens, repo: crashingRepo(store, isMilestone, killAt, controller), signal: controller.signal });
  const firstPrompts = completions().map((r) => JSON.stringify((r.body as { messages: unknown }).messages));
  const stored = await store.getRun(first.id);
  expect(stored?.status).toBe('running');
  const atCrash = await store.getEvents(first.id);
  server.reset();
  const resumed = await runChain({ chain, inputs, provider, model, countTokens, repo: store, runId: first.id, resume: { events: await store.getEvents(first.id) } });
  const resumedPrompts = completions().map((r) => JSON.stringify((r.body as { messages: unknown }).messages));
  return { resumed, firstPrompts, resumedPrompts, atCrash, events: await store.getEvents(first.id) };
}

describe('resume after an interruption', () => {
  it.each(Array.from({ length: 10 }, (_, i) => i + 1))('10-step chain interrupted after step %i repeats no completed call', async (k) => {
    const chain = sequentialChain(10);
    const { resumed, firstPrompts, resumedPrompts, events } = await interruptAndResume(chain, { topic: 'appeals' }, (e) => e.type === 'step.finished', k);
    expect(firstPrompts).toHaveLength(k);
    expect(resumedPrompts).toHaveLength(10 - k);
    expect(resumedPrompts.some((p) => firstPrompts.includes(p))).toBe(false);
    expect(resumed.status).toBe('succeeded');
    expect(events.filter((e) => e.type === 'step.finished' && e.status === 'succeeded')).toHaveLength(10);
    expect(events.some((e) => e.type === 'run.resumed')).toBe(true);
  });

  const items = Array.from({ length: 20 }, (_, i) => ({ id: `u${i + 1}`, text: `unit text ${i + 1}` }));

  it.each(Array.from({ length: 20 }, (_, i) => i + 1))('20-unit map interrupted after unit %i repeats no completed unit', async (k) => {
    const { resumed, firstPrompts, resumedPrompts, events } = await interruptAndResume(mapChain(20, 1), { items }, (e) => e.type === 'step.unit', k);
    expect(firstPrompts).toHaveLength(k);
    expect(resumedPrompts).toHaveLength(20 - k);
    expect(resumed.status).toBe('succeeded');
    const output = resumed.output as { results: { unit_id: string }[]; ok_count: number };
    expect(output.results.map((r) => r.unit_id)).toEqual(items.map((i) => i.id));
    expect(output.ok_count).toBe(20);
    expect(new Set(events.filter((e) => e.type === 'step.unit').map((e) => (e as { unitId: string }).unitId)).size).toBe(20);
  });

  it('with units in flight at the crash, no unit durable before it is called again', async () => {
    const { resumed, resumedPrompts, atCrash, events } = await interruptAndResume(mapChain(20, 4), { items }, (e) => e.type === 'step.unit', 7);
    const unitsOf = (list: TraceEvent[]) => new Set(list.filter((e) => e.type === 'step.unit').map((e) => (e as { unitId: string }).unitId));
    const durableAtCrash = unitsOf(atCrash);
    expect(durableAtCrash.size).toBeGreaterThanOrEqual(7);
    const calledAgain = resumedPrompts.map((p) => /Unit (u\d+)/.exec(p)?.[1]).filter((u) => u && durableAtCrash.has(u));
    expect(calledAgain).toEqual([]);
    expect(unitsOf(events).size).toBe(20);
    expect(resumed.status).toBe('succeeded');
  });
});
