import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { routedChain, twoStepChain } from '../testing/chain-fixtures.ts';
import { stepRegistry } from '../steps/index.ts';
import { lintChain } from './lint.ts';
import type { Chain } from './schema.ts';

const codes = (chain: Chain) => lintChain(chain, stepRegistry).map((f) => `${f.code}${f.stepId ? `@${f.stepId}` : ''}`);
const demo = (file: string) => JSON.parse(readFileSync(new URL(`../../public/demo/${file}`, import.meta.url), 'utf8')) as Chain;

describe('lintChain', () => {
  it('flags a model step without an output schema and an unbounded array', () => {
    const chain = twoStepChain();
    chain.steps[1]!.config.outputSchema = null;
    (chain.steps[0]!.config.outputSchema as { properties: { facts: Record<string, unknown> } }).properties.facts = { type: 'array', items: { type: 'string' } };
    expect(codes(chain)).toEqual(expect.arrayContaining(['no-output-schema@answer', 'unbounded-array@extract']));
  });

  it('flags a router branching on untrusted text, and an abstain flag nobody reads', () => {
    const chain = routedChain();
    chain.steps[1]!.config.bindings = { value: 'inputs.ticket' };
    (chain.steps[0]!.config.outputSchema as { properties: Record<string, unknown> }).properties.insufficient_evidence = { type: 'boolean' };
    expect(codes(chain)).toEqual(expect.arrayContaining(['route-on-untrusted-text@route', 'unconsumed-abstain-flag@classify']));
  });

  it('flags a reduce that reads raw units, a side effect before the end, and no baseline', () => {
    const chain = twoStepChain();
    chain.steps.push({ id: 'merge', kind: 'reduce', name: 'Merge', position: { x: 0, y: 0 }, config: { bindings: { collection: 'inputs.document' }, prompt: '{collection}' } });
    chain.steps.push({ id: 'hook', kind: 'webhook', name: 'Hook', position: { x: 0, y: 0 }, config: { bindings: { value: 'steps.answer' } } });
    chain.steps.push({ id: 'after', kind: 'output', name: 'After', position: { x: 0, y: 0 }, config: { bindings: { value: 'steps.hook' } } });
    expect(codes(chain)).toEqual(expect.arrayContaining(['reduce-reads-raw-units@merge', 'side-effect-before-end@hook', 'no-single-prompt-baseline']));
  });

  it('flags a split for a whole-document rewrite fed by a retrieve step: a partition is needed, not a ranking', () => {
    const chain = demo('contract-rewrite.chain.json');
    expect(codes(chain)).not.toContain('partition-from-ranking@split');
    chain.inputs.push({ name: 'query', schema: { type: 'string' }, trust: 'trusted', required: true });
    chain.steps.unshift({ id: 'pick', kind: 'retrieve', name: 'Pick clauses', position: { x: 0, y: 0 }, config: { bindings: { document: 'inputs.contract', query: 'inputs.query' }, topK: 20 } });
    const split = chain.steps.find((s) => s.id === 'split')!;
    (split.config.bindings as Record<string, string>).units = 'steps.pick.sections';
    const finding = lintChain(chain, stepRegistry).find((f) => f.code === 'partition-from-ranking');
    expect(finding).toMatchObject({ severity: 'warning', stepId: 'split' });
    expect(finding?.message).toContain('"units" reads pick, a retrieve step that keeps only its top-ranked sections');
    // Retrieval may still choose the shared context each group is sent with: that is a ranking's job.
    (split.config.bindings as Record<string, string>).units = 'inputs.contract';
    (split.config.bindings as Record<string, string>).shared = 'steps.pick.sections';
    expect(codes(chain)).not.toContain('partition-from-ranking@split');
  });

  it('a required binding that nothing is bound to is an error on the step, in plain words; an optional one is not', () => {
    const chain = routedChain();
    chain.steps[1]!.config.bindings = { classify: 'steps.classify' };
    chain.steps.push({ id: 'hand_over', kind: 'escalate', name: 'Hand over', position: { x: 0, y: 0 }, config: { bindings: {}, reason: 'why' } });
    const findings = lintChain(chain, stepRegistry).filter((f) => f.code === 'missing-binding');
    expect(findings).toEqual([{ code: 'missing-binding', severity: 'error', stepId: 'route', message: 'Router reads "value" but nothing is bound to it: connect the step whose label it branches on' }]);
    chain.steps[1]!.config.bindings = { value: 'steps.classify.category' };
    expect(codes(chain)).not.toContain('missing-binding@route');
  });

  it('a gate whose check needs the document says so', () => {
    const chain = twoStepChain();
    chain.steps.push({ id: 'quotes', kind: 'gate', name: 'Quotes', position: { x: 0, y: 0 }, config: { bindings: { value: 'steps.extract' }, check: { type: 'quoteContainment', quotesPath: 'facts[*].quote' }, onFail: 'abort' } });
    expect(lintChain(chain, stepRegistry).find((f) => f.code === 'missing-binding')?.message).toBe('Gate reads "source" but nothing is bound to it: connect the document the quotes must come from');
  });

  it('no demo chain misses a binding its steps read', () => {
    for (const file of readdirSync(new URL('../../public/demo/', import.meta.url)).filter((f) => f.endsWith('.chain.json'))) {
      expect(codes(demo(file)).filter((c) => c.startsWith('missing-binding')), file).toEqual([]);
    }
  });

  it('warns when the budget can overflow with no truncation policy', () => {
    const chain = twoStepChain();
    chain.steps[0]!.config.inputBudget = 1000;
    expect(codes(chain)).toContain('budget-may-overflow@extract');
    chain.steps[0]!.config.truncate = { binding: 'document', from: 'end' };
    expect(codes(chain)).not.toContain('budget-may-overflow@extract');
  });

  it('finds the seed-000 failure in the summarise demo and not the contract problems of the quotes demo', () => {
    const summarise = codes(demo('summarise-then-answer.chain.json'));
    expect(summarise).toContain('no-failure-path@summarise');
    const quotes = codes(demo('select-quotes-then-answer.chain.json'));
    expect(quotes).not.toContain('unconsumed-abstain-flag@select');
    expect(quotes).not.toContain('unbounded-array@select');
  });
});
