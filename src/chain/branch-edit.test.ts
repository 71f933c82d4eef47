import { describe, expect, it } from 'vitest';
import { stepRegistry } from '../steps/index.ts';
import { routedChain } from '../testing/chain-fixtures.ts';
import {
  allowedValues, branchChoiceProblem, branchesInto, branchLabelOptions, connectBranch, parseBranchLabel, schemaAtRef,
} from './branch-edit.ts';
import { addStep, connect, connectInput, removeBranch, removeStep, setBinding, updateStepConfig } from './edit.ts';
import { undo, createHistory, record } from './history.ts';
import type { Chain } from './schema.ts';

const routeCfg = (c: Chain) => c.steps.find((s) => s.id === 'route')!.config as { routes: { equals: unknown; to: string; label: string }[]; defaultTo: string | null };
const bindingsOf = (c: Chain, id: string) => (c.steps.find((s) => s.id === id)!.config as { bindings: Record<string, string> }).bindings;
/** The routed chain with no branches yet, and Outputs that read nothing. */
function unwired(): Chain {
  let chain = removeBranch(removeBranch(routedChain(), 'route', 'tech_reply', stepRegistry), 'route', 'billing_reply', stepRegistry);
  for (const id of ['billing_reply', 'tech_reply']) chain = updateStepConfig(chain, id, 'bindings', {});
  return chain;
}

describe('branch labels', () => {
  it('offers the values the upstream schema\'s enum allows at the field the router reads', () => {
    const options = branchLabelOptions(unwired(), 'route', stepRegistry);
    expect(options).toEqual({ readsFrom: 'steps.classify.category', values: ['billing', 'tech'], allowsText: true, taken: [], otherwise: null });
    expect(branchLabelOptions(unwired(), 'classify', stepRegistry)).toBeNull();
  });

  it('reads through a pass-through step and into array items; no enum offers nothing', () => {
    let chain = addStep(unwired(), 'gate', { x: 0, y: 0 }, stepRegistry).chain;
    chain = connect(chain, 'classify', 'gate_1', undefined, stepRegistry);
    expect(allowedValues(schemaAtRef(chain, 'steps.gate_1.category', stepRegistry))).toEqual(['billing', 'tech']);
    expect(allowedValues({ type: 'boolean' })).toEqual([true, false]);
    expect(allowedValues({ anyOf: [{ const: 'a' }, { const: 'b' }] })).toEqual(['a', 'b']);
    expect(allowedValues(schemaAtRef(chain, 'inputs.ticket', stepRegistry))).toEqual([]);
    expect(schemaAtRef(chain, 'steps.classify.nope', stepRegistry)).toBeNull();
  });

  it('typed text becomes the allowed value it spells; numbers and booleans only where the schema has no text', () => {
    expect(parseBranchLabel(' tech ', { values: ['billing', 'tech'], allowsText: true })).toBe('tech');
    expect(parseBranchLabel('3', { values: [], allowsText: true })).toBe('3');
    expect(parseBranchLabel('3', { values: [], allowsText: false })).toBe(3);
    expect(parseBranchLabel('true', { values: [true, false], allowsText: false })).toBe(true);
  });

  it('no empty labels and no label routed twice', () => {
    const options = branchLabelOptions(connectBranch(unwired(), 'route', 'billing_reply', { kind: 'label', equals: 'billing' }, stepRegistry), 'route', stepRegistry)!;
    expect(branchChoiceProblem(options, { kind: 'label', equals: '  ' })).toMatch(/Type the label/);
    expect(branchChoiceProblem(options, { kind: 'label', equals: 'billing' })).toBe('"billing" already has a route.');
    expect(branchChoiceProblem(options, { kind: 'label', equals: 'tech' })).toBeNull();
    expect(branchChoiceProblem(options, { kind: 'otherwise' })).toBeNull();
    // The enum lists every label the classifier can give: another would never be taken.
    expect(branchChoiceProblem(options, { kind: 'label', equals: 'refund' })).toBe('"refund" is not a value steps.classify.category can take: choose billing, tech or otherwise.');
    expect(branchChoiceProblem({ ...options, values: [] }, { kind: 'label', equals: 'refund' })).toBeNull();
  });
});

describe('connectBranch', () => {
  it('a route on the chosen label, and "otherwise" only when chosen', () => {
    const first = connectBranch(unwired(), 'route', 'billing_reply', { kind: 'label', equals: 'billing' }, stepRegistry);
    expect(routeCfg(first)).toEqual(expect.objectContaining({ routes: [{ equals: 'billing', to: 'billing_reply', label: 'billing' }], defaultTo: null }));
    const second = connectBranch(first, 'route', 'tech_reply', { kind: 'otherwise' }, stepRegistry);
    expect(routeCfg(second).defaultTo).toBe('tech_reply');
    // An empty or already routed label makes nothing; the same chain back, so history records nothing.
    expect(connectBranch(second, 'route', 'tech_reply', { kind: 'label', equals: '' }, stepRegistry)).toBe(second);
    expect(connectBranch(second, 'route', 'tech_reply', { kind: 'label', equals: 'billing' }, stepRegistry)).toBe(second);
    expect(connectBranch(second, 'classify', 'tech_reply', { kind: 'otherwise' }, stepRegistry)).toBe(second);
  });

  it('an Output after a branch reads the branch\'s value unless the person bound another', () => {
    const drawn = connectBranch(unwired(), 'route', 'billing_reply', { kind: 'label', equals: 'billing' }, stepRegistry);
    expect(bindingsOf(drawn, 'billing_reply')).toEqual({ value: 'steps.classify' });
    const chosen = updateStepConfig(unwired(), 'tech_reply', 'bindings', { value: 'inputs.ticket' });
    expect(bindingsOf(connectBranch(chosen, 'route', 'tech_reply', { kind: 'otherwise' }, stepRegistry), 'tech_reply')).toEqual({ value: 'inputs.ticket' });
  });

  it('branches drawn before the router reads anything: the Outputs read its value once it is connected', () => {
    let chain = updateStepConfig(unwired(), 'route', 'bindings', {});
    chain = connectBranch(chain, 'route', 'billing_reply', { kind: 'label', equals: 'billing' }, stepRegistry);
    chain = connectBranch(chain, 'route', 'tech_reply', { kind: 'otherwise' }, stepRegistry);
    expect(bindingsOf(chain, 'billing_reply')).toEqual({});
    // Bound in the inspector rather than drawn: the same.
    expect(bindingsOf(setBinding(chain, 'route', 'value', 'steps.classify', stepRegistry), 'tech_reply')).toEqual({ value: 'steps.classify' });
    chain = connect(chain, 'classify', 'route', undefined, stepRegistry);
    expect(bindingsOf(chain, 'billing_reply')).toEqual({ value: 'steps.classify' });
    expect(bindingsOf(chain, 'tech_reply')).toEqual({ value: 'steps.classify' });
    // Reading an input instead works the same way.
    const viaInput = connectInput(updateStepConfig(chain, 'route', 'bindings', {}), 'ticket', 'route', undefined, stepRegistry);
    expect(bindingsOf(viaInput, 'route')).toEqual({ value: 'inputs.ticket' });
  });
});

describe('deleting a branch target', () => {
  it('names every branch into the deleted steps, and undo brings back the step and its route', () => {
    const chain = routedChain();
    expect(branchesInto(chain, ['tech_reply'], stepRegistry)).toEqual([{ from: 'route', to: 'tech_reply', label: 'otherwise' }]);
    expect(branchesInto(chain, ['billing_reply', 'tech_reply'], stepRegistry).map((b) => b.label)).toEqual(['billing', 'otherwise']);
    // Branches out of a step deleted with it are not a loss to warn about.
    expect(branchesInto(chain, ['route', 'tech_reply'], stepRegistry)).toEqual([]);
    expect(branchesInto(chain, ['classify'], stepRegistry)).toEqual([]);
    const history = record(createHistory(chain), removeStep(chain, 'tech_reply', stepRegistry));
    expect(routeCfg(history.present).defaultTo).toBeNull();
    const back = undo(history).present;
    expect(back.steps.map((s) => s.id)).toContain('tech_reply');
    expect(routeCfg(back).defaultTo).toBe('tech_reply');
  });
});
