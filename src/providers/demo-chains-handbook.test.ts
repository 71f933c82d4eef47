import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseChain } from '../chain/parse.ts';
import type { Chain } from '../chain/schema.ts';
import { runChain } from '../engine/run.ts';
import { stepRegistry } from '../steps/index.ts';
import type { TraceEvent } from '../trace/events.ts';
import { createMemoryRunRepository } from '../trace/repository.ts';
import { createDemoProvider } from './demo-model.ts';
import { demoProfile, runModelSettings } from './profiles.ts';
import { conditionLint, inspectRun, runSufficiency } from '../inspect/index.ts';

/**
 * Every demo design on a document it was not built with: a dental-plan handbook whose rules
 * are numbered clause lines (`4.1 A member may appeal …`), not a statute's lettered paragraphs.
 * The clause lines must read as text with ids: before, every clause was taken for a heading,
 * the summariser found "no text to summarise" and every selection abstained.
 */
const demoDir = new URL('../../public/demo/', import.meta.url);
const read = (file: string) => readFileSync(new URL(file, demoDir), 'utf8');
const handbook = read('documents/dental-plan-handbook.md');
const question = 'How long do I have to appeal a denied claim?';

function load(file: string): Chain {
  const parsed = parseChain(read(file), stepRegistry);
  if (!parsed.ok) throw new Error(parsed.problems.map((p) => `${p.path} ${p.message}`).join('; '));
  return parsed.chain;
}

async function run(file: string, inputs: Record<string, unknown>) {
  const repo = createMemoryRunRepository();
  const meta = await runChain({ chain: load(file), inputs, provider: createDemoProvider(), model: runModelSettings(demoProfile), repo, countTokens: (t) => Math.ceil(t.length / 4) });
  const events = await repo.getEvents(meta.id);
  const output = (id: string) => events.find((e): e is Extract<TraceEvent, { type: 'step.finished' }> => e.type === 'step.finished' && e.stepId === id)?.output;
  return { meta, events, output };
}

describe('demo designs on a numbered-clause handbook', () => {
  it('summarise-then-answer summarises every part and, as designed, loses the 180 days', async () => {
    const { meta, output } = await run('summarise-then-answer.chain.json', { document: handbook, question });
    expect(meta.status).toBe('succeeded');
    const summary = (output('summarise') as { summary: string }).summary;
    expect(summary).toMatch(/^The document has seven main parts\. Eligibility: /);
    expect(summary).toContain('Appeals: A member may appeal a denied claim');
    expect(summary).not.toMatch(/several\.several|no text to summarise|\b180\b/);
    expect((meta.output as { answer: string }).answer).not.toMatch(/180/);
  });

  for (const file of ['select-quotes-then-answer.chain.json', 'select-quotes-enum.chain.json']) {
    it(`${file.replace('.chain.json', '')} quotes clause 4.1, passes its gate and answers 180 days`, async () => {
      const { meta, events, output } = await run(file, { document: handbook, question });
      expect(meta.status).toBe('succeeded');
      const selection = output('select') as { relevant_sections: { section_id: string; quote: string }[]; insufficient_evidence: boolean };
      expect(selection.insufficient_evidence).toBe(false);
      expect(selection.relevant_sections).toContainEqual(expect.objectContaining({ section_id: '4.1', quote: expect.stringContaining('within 180 days of the denial notice') }));
      expect(events.find((e) => e.type === 'step.check' && e.stepId === 'quotes_check')).toMatchObject({ passed: true });
      expect(meta.output).toMatchObject({ answer: expect.stringMatching(/^You have 180 days to appeal a denied claim/), section_ids: ['4.1'] });
    });
  }

  it('select-quotes-enum offers the handbook\'s own clause ids as the enum', async () => {
    const { events } = await run('select-quotes-enum.chain.json', { document: handbook, question });
    const attempt = events.find((e): e is Extract<TraceEvent, { type: 'step.attempt' }> => e.type === 'step.attempt' && e.stepId === 'select');
    expect(JSON.stringify(attempt?.record.requestBody)).toContain('"4.1","4.2","4.3","4.4"');
  });

  it('question-conditioned-summary keeps the clause and its figure', async () => {
    const { meta, output } = await run('question-conditioned-summary.chain.json', { document: handbook, question });
    expect(meta.status).toBe('succeeded');
    expect((output('summarise') as { summary: string }).summary).toContain('Appeals, § 4.1: A member may appeal a denied claim by writing to the plan within 180 days');
    expect((meta.output as { answer: string }).answer).toMatch(/^You have 180 days/);
  });

  for (const file of ['bm25-then-single-prompt.chain.json', 'retrieval-pipeline.chain.json']) {
    it(`${file.replace('.chain.json', '')} retrieves clause 4.1 first and answers from it`, async () => {
      const { meta, output } = await run(file, { document: handbook, question });
      expect(meta.status).toBe('succeeded');
      expect((output('retrieve') as { sections: { section_id: string }[] }).sections[0]?.section_id).toBe('4.1');
      expect((meta.output as { answer: string }).answer).toMatch(/^You have 180 days to appeal a denied claim/);
    });
  }

  it('contract-rewrite splits the handbook into its 23 clauses and the id check passes', async () => {
    const chain = load('contract-rewrite.chain.json');
    const inputs = Object.fromEntries(chain.inputs.map((i) => [i.name, i.name === 'contract' ? handbook : i.example]));
    const { meta, events, output } = await run('contract-rewrite.chain.json', inputs);
    expect(meta.status).toBe('succeeded');
    const groups = (output('split') as { groups: { unit_ids: string[] }[] }).groups;
    expect(groups.flatMap((g) => g.unit_ids)).toHaveLength(23);
    expect(groups.flatMap((g) => g.unit_ids)).toContain('4.3');
    expect(events.find((e) => e.type === 'step.check' && e.stepId === 'id_check')).toMatchObject({ passed: true });
  });

  it('summarise-handbook-condition: the summary drops the definition the question turns on, and the replay says so', async () => {
    const chain = load('summarise-handbook-condition.chain.json');
    const example = chain.inputs.find((i) => i.name === 'question')?.example;
    expect(example).toBe('When does an appeal count as urgent?');
    // The clause that defines "urgent" (its exact span is the clause rules' to choose).
    const isClause = (f: { kind: string; text: string }) => f.kind === 'condition' && /seriously harm/.test(f.text);
    // Before any run: the summarising step is warned, naming the condition.
    expect(conditionLint(chain, stepRegistry, { document: handbook })).toEqual([expect.objectContaining({ code: 'summary-drops-conditions', stepId: 'summarise', message: expect.stringMatching(/“[^”]*seriously harm[^”]*” \(section 4\.3/) })]);
    const { meta, events, output } = await run('summarise-handbook-condition.chain.json', { document: handbook, question: example });
    expect(meta.status).toBe('succeeded');
    const summary = (output('summarise') as { summary: string }).summary;
    expect(summary).toContain('Appeals: A member may appeal a denied claim');
    expect(summary).not.toMatch(/seriously|harm|health/);
    const [boundary] = inspectRun(meta, events, { registry: stepRegistry }).boundaries;
    expect(boundary).toMatchObject({ producer: 'summarise', consumer: 'answer', lossy: true });
    expect(boundary?.survival.facts.find(isClause)).toMatchObject({ section: '4.3', status: 'dropped' });
    expect(boundary?.askedFacts.find((a) => isClause(a.fact))).toMatchObject({ status: 'dropped' });
    expect(runSufficiency(meta, events, { registry: stepRegistry })[0]).toMatchObject({ producer: 'summarise', consumer: 'answer', estimate: { verdict: 'insufficient' } });
  });
});
