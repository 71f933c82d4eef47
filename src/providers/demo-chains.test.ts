import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseChain } from '../chain/parse.ts';
import type { Chain } from '../chain/schema.ts';
import { runChain } from '../engine/run.ts';
import type { TraceEvent } from '../trace/events.ts';
import { createMemoryRunRepository } from '../trace/repository.ts';
import { createDemoProvider } from './demo-model.ts';
import { demoProfile, runModelSettings } from './profiles.ts';
import { stepRegistry } from '../steps/index.ts';

/** The two demo chains in public/demo, run end to end on the offline demo model. */

const demoDir = new URL('../../public/demo/', import.meta.url);
const read = (file: string) => readFileSync(new URL(file, demoDir), 'utf8');
const index = JSON.parse(read('index.json')) as { file: string; id: string; name: string }[];

function load(file: string): Chain {
  const parsed = parseChain(read(file), stepRegistry);
  if (!parsed.ok) throw new Error(parsed.problems.map((p) => `${p.path} ${p.message}`).join('; '));
  return parsed.chain;
}

function documentFor(chain: Chain): string {
  const files = (chain.meta?.inputFiles ?? {}) as Record<string, string>;
  return read(files.document ?? '');
}

async function run(chain: Chain, question: string) {
  const repo = createMemoryRunRepository();
  const meta = await runChain({
    chain, inputs: { document: documentFor(chain), question }, provider: createDemoProvider(),
    model: runModelSettings(demoProfile), repo, countTokens: (t) => Math.ceil(t.length / 4),
  });
  const events = await repo.getEvents(meta.id);
  const finished = (id: string) => events.find((e): e is Extract<TraceEvent, { type: 'step.finished' }> => e.type === 'step.finished' && e.stepId === id);
  return { meta, events, finished };
}

const [summariseFile, selectFile] = ['summarise-then-answer.chain.json', 'select-quotes-then-answer.chain.json'];

describe('demo chains', () => {
  it('are listed in index.json and parse as chain files', () => {
    // The two seed-000 chains come first; the other seed chains follow (demo-chains-seeds.test.ts).
    expect(index.slice(0, 2).map((e) => e.file)).toEqual([summariseFile, selectFile]);
    for (const entry of index.slice(0, 2)) {
      const chain = load(entry.file);
      expect(chain.id).toBe(entry.id);
      expect(chain.name).toBe(entry.name);
      expect(chain.inputs.find((i) => i.name === 'question')?.trust).toBe('untrusted');
      expect(chain.inputs.find((i) => i.name === 'document')).toMatchObject({ trust: 'trusted' });
      expect(chain.inputs.find((i) => i.name === 'document')?.example).toBeUndefined();
      const files = chain.meta?.inputFiles as Record<string, string>;
      expect(existsSync(new URL(files.document ?? '', demoDir))).toBe(true);
    }
  });

  const summariseChain = load(summariseFile);
  const selectChain = load(selectFile);
  const question = String(selectChain.inputs.find((i) => i.name === 'question')?.example);

  it('summarise-then-answer loses the 180 days at the boundary and answers "promptly"', async () => {
    expect(question).toBe('How many days do I have to request a reconsideration of a denied Medicare claim?');
    const { meta, finished } = await run(summariseChain, question);
    expect(meta.status).toBe('succeeded');
    const summary = (finished('summarise')?.output as { summary: string }).summary;
    expect(summary).not.toMatch(/\b(180|120|72|60)\b/);
    expect(summary).toContain('Appeal rights');
    const answer = (meta.output as { answer: string }).answer;
    expect(answer).toMatch(/promptly after/);
    expect(answer).not.toMatch(/\d/);
  });

  it('select-quotes-then-answer keeps the 180-day period, passes the gate and cites (b)(1)(D)(i)', async () => {
    const { meta, events, finished } = await run(selectChain, question);
    expect(meta.status).toBe('succeeded');
    expect(meta.error).toBeUndefined();
    const selection = finished('select')?.output as { relevant_sections: { quote: string; section_id: string }[] };
    expect(selection.relevant_sections.some((s) => s.quote.includes('180-day period') && s.section_id === '(b)(1)(D)(i)')).toBe(true);
    expect(events.find((e) => e.type === 'step.check')).toMatchObject({ stepId: 'quotes_check', passed: true, problems: [] });
    expect(events.find((e) => e.type === 'step.route')).toMatchObject({ stepId: 'route_evidence', chosen: ['answer'] });
    expect(finished('no_answer')?.status).toBe('skipped');
    const output = meta.output as { answer: string; section_ids: string[] };
    expect(output.answer).toMatch(/^You have 180 days to request a reconsideration/);
    expect(output.answer).toContain('§ 1395ff(b)(1)(D)(i)');
    expect(output.section_ids).toEqual(['(b)(1)(D)(i)']);
    // The untrusted question reached both model steps framed as data.
    const sent = events.filter((e): e is Extract<TraceEvent, { type: 'step.attempt' }> => e.type === 'step.attempt');
    expect(sent).toHaveLength(2);
    for (const attempt of sent) expect(attempt.record.messages.at(-1)?.content).toContain('<data name="question">');
  });

  it('select-quotes-then-answer routes an unanswerable question to no_answer', async () => {
    const { meta, finished } = await run(selectChain, 'How do I bake sourdough bread?');
    expect(meta.status).toBe('succeeded');
    expect(finished('answer')?.status).toBe('skipped');
    expect(meta.output).toEqual({ relevant_sections: [], insufficient_evidence: true });
  });
});
