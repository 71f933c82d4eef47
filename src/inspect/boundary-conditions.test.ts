import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseChain } from '../chain/parse.ts';
import type { Chain } from '../chain/schema.ts';
import { stepRegistry } from '../steps/index.ts';
import { asksToKeepConditions, boundaryConditions, conditionLint } from './boundary-conditions.ts';

const demo = (file: string) => readFileSync(new URL(`../../public/demo/${file}`, import.meta.url), 'utf8');
const handbook = demo('documents/dental-plan-handbook.md');
const question = 'When does an appeal count as urgent?';

function load(file: string, example = question): Chain {
  const parsed = parseChain(demo(file), stepRegistry);
  if (!parsed.ok) throw new Error(parsed.problems.map((p) => p.message).join('; '));
  return { ...parsed.chain, inputs: parsed.chain.inputs.map((i) => (i.name === 'question' ? { ...i, example } : i)) };
}

/** The clause that defines "urgent" in the handbook (its exact span is the clause rules' to choose). */
const clause = /seriously harm the member's health/;

describe('boundaryConditions', () => {
  it('names the conditions the consumer\'s question needs at the summary handoff', () => {
    const [edge, ...rest] = boundaryConditions(load('summarise-then-answer.chain.json'), stepRegistry, { document: handbook });
    expect(rest).toEqual([]);
    expect(edge).toMatchObject({ edgeId: 'data:summarise->answer:summary', producer: 'summarise', consumer: 'answer', questions: [question], consumerHoldsSource: false, summarises: true, asksToKeepConditions: false });
    expect(edge?.conditions.map((c) => c.text)).toContainEqual(expect.stringMatching(clause));
  });

  it('needs nothing without the document\'s text or without a question', () => {
    expect(boundaryConditions(load('summarise-then-answer.chain.json'), stepRegistry, {})).toEqual([]);
    const chain = load('summarise-then-answer.chain.json');
    const noExample = { ...chain, inputs: chain.inputs.map(({ example: _, ...i }) => i) };
    expect(boundaryConditions(noExample, stepRegistry, { document: handbook })).toEqual([]);
  });

  it('takes more questions per input (a dataset\'s) beside the example', () => {
    const [edge] = boundaryConditions(load('summarise-then-answer.chain.json'), stepRegistry, { document: handbook }, { questions: { question: ['Do I have to pay the deductible before my cleaning is covered?'] } });
    expect(edge?.conditions.map((c) => c.text)).toEqual(expect.arrayContaining([expect.stringContaining('no deductible'), expect.stringMatching(clause)]));
  });

  it('says which dataset the further questions came from and how many they are (the example and repeats not counted)', () => {
    const chain = load('summarise-then-answer.chain.json');
    const dataset = { question: ['Do I have to pay the deductible before my cleaning is covered?', question, '  ', 'Do I have to pay the deductible before my cleaning is covered?', 'Can a claim filed 14 months late still be paid?'] };
    const [edge] = boundaryConditions(chain, stepRegistry, { document: handbook }, { questions: dataset, datasetName: 'Handbook questions' });
    expect(edge?.questions).toEqual([question, 'Do I have to pay the deductible before my cleaning is covered?', 'Can a claim filed 14 months late still be paid?']);
    expect(edge?.fromDataset).toEqual({ name: 'Handbook questions', questions: 2 });
    expect(boundaryConditions(chain, stepRegistry, { document: handbook })[0]?.fromDataset).toBeNull();
    // Questions for an input the consumer does not read are not its questions.
    expect(boundaryConditions(chain, stepRegistry, { document: handbook }, { questions: { other: ['Is it final?'] }, datasetName: 'x' })[0]?.fromDataset).toBeNull();
    const [finding] = conditionLint(chain, stepRegistry, { document: handbook }, { questions: dataset, datasetName: 'Handbook questions' });
    expect(finding?.message).toContain('Step "answer" is asked 3 questions (2 from dataset “Handbook questions”), which turn on');
  });
});

describe('conditionLint', () => {
  it('warns on the summarising step, naming the condition in the user\'s words', () => {
    const [finding, ...rest] = conditionLint(load('summarise-then-answer.chain.json'), stepRegistry, { document: handbook });
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({ code: 'summary-drops-conditions', severity: 'warning', stepId: 'summarise' });
    expect(finding?.message).toContain(`Step "answer" is asked “${question}”`);
    expect(finding?.message).toMatch(/“[^”]*seriously harm the member's health” \(section 4\.3, [a-z]/);
    expect(finding?.message).not.toMatch(/\b(?:seed|article|chapter)\b/i);
  });

  it('is quiet when the summary is told to keep conditions', () => {
    const chain = load('question-conditioned-summary.chain.json');
    expect(boundaryConditions(chain, stepRegistry, { document: handbook })[0]).toMatchObject({ summarises: true, asksToKeepConditions: true });
    expect(conditionLint(chain, stepRegistry, { document: handbook })).toEqual([]);
  });

  it('is quiet for a step that does not summarise, and when the consumer reads the document itself', () => {
    const select = load('select-quotes-then-answer.chain.json');
    const edges = boundaryConditions(select, stepRegistry, { document: handbook });
    expect(edges.some((e) => e.conditions.length > 0)).toBe(true);
    expect(conditionLint(select, stepRegistry, { document: handbook })).toEqual([]);
    const chain = load('summarise-then-answer.chain.json');
    const holds = { ...chain, steps: chain.steps.map((s) => (s.id === 'answer' ? { ...s, config: { ...(s.config as object), bindings: { summary: 'steps.summarise.summary', question: 'inputs.question', document: 'inputs.document' }, prompt: 'Answer from {summary} and {document}: {question}' } } : s)) };
    expect(boundaryConditions(holds, stepRegistry, { document: handbook })[0]?.consumerHoldsSource).toBe(true);
    expect(conditionLint(holds, stepRegistry, { document: handbook })).toEqual([]);
  });

  it('sees through a gate between the summary and its reader: the gate passes the summary on', () => {
    const chain = load('summarise-then-answer.chain.json');
    const gate = { id: 'check', kind: 'gate', name: 'Check the summary', position: { x: 140, y: 0 }, config: { bindings: { value: 'steps.summarise.summary' }, check: { type: 'jsonSchema', schema: { type: 'string' } }, onFail: 'abort' } };
    const gated = {
      ...chain,
      steps: [...chain.steps.map((s) => (s.id === 'answer' ? { ...s, config: { ...(s.config as object), bindings: { summary: 'steps.check', question: 'inputs.question' } } } : s)), gate],
    } as Chain;
    const edges = boundaryConditions(gated, stepRegistry, { document: handbook });
    expect(edges.map((e) => [e.edgeId, e.producer])).toEqual([['data:check->answer:summary', 'summarise']]);
    expect(edges[0]?.conditions.map((c) => c.text)).toContainEqual(expect.stringMatching(clause));
    const [finding, ...rest] = conditionLint(gated, stepRegistry, { document: handbook });
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({ code: 'summary-drops-conditions', stepId: 'summarise' });
  });

  it('reads "keep the conditions" in a prompt\'s words, not one phrasing', () => {
    expect(asksToKeepConditions('Preserve every number, deadline, dollar amount and named condition verbatim.')).toBe(true);
    expect(asksToKeepConditions('Keep each exception and definition in its own words.')).toBe(true);
    expect(asksToKeepConditions('Never leave out an "unless" clause.')).toBe(true);
    expect(asksToKeepConditions('Keep it short and general: one sentence per part.')).toBe(false);
  });
});
