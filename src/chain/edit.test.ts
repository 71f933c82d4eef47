import { describe, expect, it } from 'vitest';
import { stepRegistry } from '../steps/index.ts';
import { routedChain, twoStepChain } from '../testing/chain-fixtures.ts';
import {
  addInput, addStep, connect, connectInput, createEmptyChain, disconnect, freshId, moveInputs, renameStepId, stepIdProblem, moveStep, moveSteps, removeBranch, removeInput,
  removeStep, renameBinding, renameStep, updateInput, updateStepConfig,
} from './edit.ts';
import { chainEdges } from './graph.ts';
import { parseChain } from './parse.ts';

const bindingsOf = (chain: ReturnType<typeof twoStepChain>, id: string) =>
  (chain.steps.find((s) => s.id === id)?.config as { bindings?: Record<string, string> }).bindings;

describe('freshId', () => {
  it('takes the first free number', () => {
    expect(freshId('model', new Set())).toBe('model_1');
    expect(freshId('model', new Set(['model_1', 'model_3']))).toBe('model_2');
  });
});

describe('addStep', () => {
  it('adds a step with the registry defaults and a unique id', () => {
    const empty = createEmptyChain('c1');
    const first = addStep(empty, 'model', { x: 10.4, y: 20.6 }, stepRegistry);
    const second = addStep(first.chain, 'model', { x: 0, y: 0 }, stepRegistry);
    expect(first.stepId).toBe('model_1');
    expect(second.stepId).toBe('model_2');
    const step = second.chain.steps[1];
    expect(step).toMatchObject({ id: 'model_2', kind: 'model', name: 'Model 2', position: { x: 0, y: 0 } });
    expect(step?.config).toEqual(stepRegistry.get('model')?.defaults());
    expect(first.chain.steps[0]?.position).toEqual({ x: 10, y: 21 });
    expect(empty.steps).toHaveLength(0);
  });

  it('never reuses an input name as a step id', () => {
    const withInput = addInput(createEmptyChain('c'), 'gate_1').chain;
    expect(addStep(withInput, 'gate', { x: 0, y: 0 }, stepRegistry).stepId).toBe('gate_2');
  });

  it('refuses an unknown kind', () => {
    expect(() => addStep(createEmptyChain('c'), 'nope', { x: 0, y: 0 }, stepRegistry)).toThrow(/Unknown step kind/);
  });
});

describe('removeStep', () => {
  it('removes the step and the bindings that read it', () => {
    const chain = removeStep(twoStepChain(), 'extract', stepRegistry);
    expect(chain.steps.map((s) => s.id)).toEqual(['answer', 'final']);
    expect(bindingsOf(chain, 'answer')).toEqual({ question: 'inputs.question' });
  });

  it('removes routes and the default that go to it, and the chain still parses', () => {
    const chain = removeStep(routedChain(), 'billing_reply', stepRegistry);
    const route = chain.steps.find((s) => s.id === 'route')?.config as { routes: unknown[]; defaultTo: string | null };
    expect(route.routes).toEqual([]);
    expect(route.defaultTo).toBe('tech_reply');
    const again = removeStep(chain, 'tech_reply', stepRegistry);
    expect((again.steps.find((s) => s.id === 'route')?.config as { defaultTo: unknown }).defaultTo).toBeNull();
    expect(parseChain(again, stepRegistry).ok).toBe(true);
  });

  it('turns a fallback to the removed step into abort', () => {
    const base = twoStepChain({ onFail: 'fallback:answer' });
    const chain = removeStep(base, 'answer', stepRegistry);
    expect((chain.steps[0]?.config as { onFail: string }).onFail).toBe('abort');
  });

  it('returns the same chain for an unknown id', () => {
    const chain = twoStepChain();
    expect(removeStep(chain, 'nope', stepRegistry)).toBe(chain);
  });
});

describe('moveStep, renameStep, updateStepConfig', () => {
  it('moves and renames immutably', () => {
    const base = twoStepChain();
    const moved = moveStep(base, 'answer', { x: 5, y: 6 });
    expect(moved.steps[1]?.position).toEqual({ x: 5, y: 6 });
    expect(base.steps[1]?.position).toEqual({ x: 280, y: 0 });
    expect(renameStep(moved, 'answer', 'Reply').steps[1]?.name).toBe('Reply');
    expect(moveStep(moved, 'answer', { x: 5, y: 6 })).toBe(moved);
  });

  it('moves several steps in one edit, rounding, and returns the same chain when nothing moves', () => {
    const base = twoStepChain();
    const moved = moveSteps(base, new Map([['extract', { x: 10.4, y: 20.6 }], ['final', { x: 560, y: 0 }], ['ghost', { x: 1, y: 1 }]]));
    expect(moved.steps.map((s) => s.position)).toEqual([{ x: 10, y: 21 }, { x: 280, y: 0 }, { x: 560, y: 0 }]);
    expect(moved.steps[1]).toBe(base.steps[1]);
    expect(moved.steps[2]).toBe(base.steps[2]);
    expect(moveSteps(moved, new Map([['extract', { x: 10, y: 21 }]]))).toBe(moved);
  });

  it('moves input nodes by name; a moved input keeps its place through a save and load', () => {
    const base = twoStepChain();
    const moved = moveInputs(base, new Map([['document', { x: -300.6, y: 40 }], ['ghost', { x: 0, y: 0 }]]));
    expect(moved.inputs.find((i) => i.name === 'document')?.position).toEqual({ x: -301, y: 40 });
    expect(moved.inputs.find((i) => i.name === 'question')).toBe(base.inputs.find((i) => i.name === 'question'));
    expect(moveInputs(moved, new Map([['document', { x: -301, y: 40 }]]))).toBe(moved);
    const reparsed = parseChain(JSON.stringify(moved), stepRegistry);
    expect(reparsed.ok && reparsed.chain.inputs[0]?.position).toEqual({ x: -301, y: 40 });
  });

  it('sets nested config by key path', () => {
    const base = twoStepChain();
    const chain = updateStepConfig(base, 'extract', 'outputSchema.properties.facts.maxItems', 3);
    expect((chain.steps[0]?.config as { outputSchema: { properties: { facts: { maxItems: number } } } }).outputSchema.properties.facts.maxItems).toBe(3);
    expect((base.steps[0]?.config as { outputSchema: { properties: { facts: { maxItems: number } } } }).outputSchema.properties.facts.maxItems).toBe(5);
    expect(updateStepConfig(chain, 'extract', 'retries', 1)).toBe(chain);
    expect(() => updateStepConfig(base, 'extract', '__proto__.x', 1)).toThrow();
  });
});

describe('connect and disconnect', () => {
  it('adds a binding named after the source, drawn as an edge', () => {
    const base = twoStepChain();
    const chain = connect(base, 'extract', 'final', undefined, stepRegistry);
    expect(bindingsOf(chain, 'final')).toEqual({ value: 'steps.answer.answer', extract: 'steps.extract' });
    expect(chainEdges(chain, stepRegistry).some((e) => e.source === 'extract' && e.target === 'final' && e.label === 'extract')).toBe(true);
    expect(connect(chain, 'extract', 'final', undefined, stepRegistry)).toBe(chain);
  });

  it('keeps binding names unique and ignores self-loops and unknown sources', () => {
    const base = updateStepConfig(twoStepChain(), 'final', 'bindings', { value: 'steps.extract', answer: 'inputs.question' });
    expect(bindingsOf(connect(base, 'answer', 'final', undefined, stepRegistry), 'final')).toEqual({ value: 'steps.extract', answer: 'inputs.question', answer_2: 'steps.answer' });
    expect(connect(base, 'final', 'final', undefined, stepRegistry)).toBe(base);
    expect(connect(base, 'ghost', 'final', undefined, stepRegistry)).toBe(base);
  });

  it('an edge drawn from a router without a label makes no branch (connectBranch takes the label)', () => {
    const base = removeBranch(removeBranch(routedChain(), 'route', 'tech_reply', stepRegistry), 'route', 'billing_reply', stepRegistry);
    expect(connect(base, 'route', 'tech_reply', undefined, stepRegistry)).toBe(base);
    expect(connect(base, 'route', 'billing_reply', undefined, stepRegistry)).toBe(base);
  });

  it('an edge into a step binds the name its kind reads first (a router\'s "value"), then falls back to the source\'s name', () => {
    let chain = addInput(createEmptyChain('c'), 'ticket').chain;
    chain = addStep(chain, 'model', { x: 0, y: 0 }, stepRegistry).chain;
    chain = addStep(chain, 'router', { x: 0, y: 0 }, stepRegistry).chain;
    chain = connect(chain, 'model_1', 'router_1', undefined, stepRegistry);
    expect(bindingsOf(chain, 'router_1')).toEqual({ value: 'steps.model_1' });
    chain = connectInput(chain, 'ticket', 'router_1', undefined, stepRegistry);
    expect(bindingsOf(chain, 'router_1')).toEqual({ value: 'steps.model_1', ticket: 'inputs.ticket' });
    // A name given by the caller wins.
    expect(bindingsOf(connect(addStep(chain, 'router', { x: 0, y: 0 }, stepRegistry).chain, 'model_1', 'router_2', 'label', stepRegistry), 'router_2')).toEqual({ label: 'steps.model_1' });
  });

  it('an edge into a gate fills what its check reads: value, then source for quotes', () => {
    let chain = addInput(createEmptyChain('c'), 'document').chain;
    chain = addStep(chain, 'model', { x: 0, y: 0 }, stepRegistry).chain;
    chain = addStep(chain, 'gate', { x: 0, y: 0 }, stepRegistry).chain;
    chain = updateStepConfig(chain, 'gate_1', 'check', { type: 'quoteContainment', quotesPath: 'quotes[*].text' });
    chain = connect(chain, 'model_1', 'gate_1', undefined, stepRegistry);
    chain = connectInput(chain, 'document', 'gate_1', undefined, stepRegistry);
    expect(bindingsOf(chain, 'gate_1')).toEqual({ value: 'steps.model_1', source: 'inputs.document' });
  });

  it('a freshly connected input → model → model → output has no problems: the default {text} is renamed after what was connected', () => {
    let chain = addInput(createEmptyChain('c'), 'ticket').chain;
    for (const kind of ['model', 'model', 'output']) chain = addStep(chain, kind, { x: 0, y: 0 }, stepRegistry).chain;
    chain = connectInput(chain, 'ticket', 'model_1', undefined, stepRegistry);
    chain = connect(chain, 'model_1', 'model_2', undefined, stepRegistry);
    chain = connect(chain, 'model_2', 'output_1', undefined, stepRegistry);
    const prompt = (id: string) => (chain.steps.find((s) => s.id === id)?.config as { prompt: string }).prompt;
    expect(bindingsOf(chain, 'model_1')).toEqual({ ticket: 'inputs.ticket' });
    expect(prompt('model_1')).toBe('Answer using only the text below.\n\n{ticket}');
    expect(bindingsOf(chain, 'model_2')).toEqual({ model_1: 'steps.model_1' });
    expect(prompt('model_2')).toContain('{model_1}');
    expect(bindingsOf(chain, 'output_1')).toEqual({ value: 'steps.model_2' });
    const parsed = parseChain(chain, stepRegistry);
    expect(parsed.ok ? [] : parsed.problems).toEqual([]);
  });

  it('a placeholder the person typed keeps its name: the edge binds under it', () => {
    let chain = addInput(createEmptyChain('c'), 'ticket').chain;
    chain = addStep(chain, 'model', { x: 0, y: 0 }, stepRegistry).chain;
    chain = updateStepConfig(chain, 'model_1', 'prompt', 'Classify {email.body} for {team}');
    chain = connectInput(chain, 'ticket', 'model_1', undefined, stepRegistry);
    expect(bindingsOf(chain, 'model_1')).toEqual({ email: 'inputs.ticket' });
    expect((chain.steps[0]?.config as { prompt: string }).prompt).toBe('Classify {email.body} for {team}');
    // With every placeholder named, the next edge is named after its source.
    chain = addInput(chain, 'team').chain;
    chain = connectInput(chain, 'team', 'model_1', undefined, stepRegistry);
    chain = addInput(chain, 'notes').chain;
    expect(bindingsOf(connectInput(chain, 'notes', 'model_1', undefined, stepRegistry), 'model_1')).toEqual({ email: 'inputs.ticket', team: 'inputs.team', notes: 'inputs.notes' });
  });

  it('connects an input and disconnects a binding', () => {
    const chain = connectInput(twoStepChain(), 'document', 'answer', undefined, stepRegistry);
    expect(bindingsOf(chain, 'answer')?.document).toBe('inputs.document');
    expect(bindingsOf(disconnect(chain, 'answer', 'facts', stepRegistry), 'answer')).toEqual({ question: 'inputs.question', document: 'inputs.document' });
  });

  it('renames a binding in place', () => {
    const chain = renameBinding(twoStepChain(), 'answer', 'facts', 'evidence', stepRegistry);
    expect(Object.keys(bindingsOf(chain, 'answer') ?? {})).toEqual(['evidence', 'question']);
  });

  it('removes a branch edge', () => {
    const chain = removeBranch(routedChain(), 'route', 'tech_reply', stepRegistry);
    expect(chainEdges(chain, stepRegistry).filter((e) => e.source === 'route').map((e) => e.target)).toEqual(['billing_reply']);
  });
});

describe('inputs', () => {
  it('adds, renames (rewriting refs) and removes inputs', () => {
    const added = addInput(twoStepChain());
    expect(added.name).toBe('input_1');
    expect(added.chain.inputs.at(-1)).toMatchObject({ name: 'input_1', schema: { type: 'string' }, trust: 'trusted' });
    const renamed = updateInput(added.chain, 'document', { name: 'policy' }, stepRegistry);
    expect(bindingsOf(renamed, 'extract')).toEqual({ document: 'inputs.policy' });
    expect(parseChain(renamed, stepRegistry).ok).toBe(true);
    expect(updateInput(renamed, 'policy', { name: 'question' }, stepRegistry)).toBe(renamed);
    const removed = removeInput(renamed, 'question', stepRegistry);
    expect(removed.inputs.map((i) => i.name)).toEqual(['policy', 'input_1']);
    expect(bindingsOf(removed, 'answer')).toEqual({ facts: 'steps.extract.facts' });
  });
});

describe('renaming', () => {
  it('a binding rename takes the step\'s placeholders along, JSON braces untouched', () => {
    const base = twoStepChain();
    const answer = base.steps.find((s) => s.id === 'answer')!;
    const prompt = String((answer.config as { prompt: string }).prompt);
    const chain = updateStepConfig(base, 'answer', 'prompt', `${prompt}\nAgain: {facts.items} and {"facts": 1}`);
    const renamed = renameBinding(chain, 'answer', 'facts', 'notes', stepRegistry);
    const cfg = renamed.steps.find((s) => s.id === 'answer')!.config as { prompt: string; bindings: Record<string, string> };
    expect(cfg.bindings.notes).toBe('steps.extract.facts');
    expect(cfg.bindings.facts).toBeUndefined();
    expect(cfg.prompt).toContain('{notes.items}');
    expect(cfg.prompt).toContain('{"facts": 1}');
    expect(cfg.prompt).not.toMatch(/\{facts[}.]/);
    expect(parseChain(JSON.stringify(renamed), stepRegistry).ok).toBe(true);
  });

  it('a step id rename rewires refs, routes, default routes and fallbacks, and auto-named bindings with their placeholders', () => {
    let chain = routedChain();
    chain = updateStepConfig(chain, 'classify', 'onFail', 'fallback:tech_reply');
    chain = connect(chain, 'classify', 'tech_reply', undefined, stepRegistry);
    const renamed = renameStepId(chain, 'tech_reply', 'reply_tech', stepRegistry);
    expect(renamed.steps.map((s) => s.id)).toContain('reply_tech');
    const route = renamed.steps.find((s) => s.id === 'route')!.config as { defaultTo: string };
    expect(route.defaultTo).toBe('reply_tech');
    expect((renamed.steps.find((s) => s.id === 'classify')!.config as { onFail: string }).onFail).toBe('fallback:reply_tech');

    const again = renameStepId(renamed, 'classify', 'triage', stepRegistry);
    const reply = again.steps.find((s) => s.id === 'reply_tech')!.config as { bindings: Record<string, string> };
    expect(reply.bindings).toEqual({ value: 'inputs.ticket', triage: 'steps.triage' });
    const billing = again.steps.find((s) => s.id === 'billing_reply')!.config as { bindings: Record<string, string> };
    expect(billing.bindings.value).toBe('steps.triage.category');
    expect(parseChain(JSON.stringify(again), stepRegistry).ok).toBe(true);
    // A step that never mentions the id keeps its identity.
    const third = renameStepId(again, 'billing_reply', 'billing', stepRegistry);
    expect(third.steps.find((s) => s.id === 'reply_tech')).toBe(again.steps.find((s) => s.id === 'reply_tech'));
    expect((third.steps.find((s) => s.id === 'route')!.config as { routes: { to: string }[] }).routes[0]?.to).toBe('billing');
  });

  it('refuses ids that are taken or not identifiers, with the reason', () => {
    const chain = routedChain();
    expect(stepIdProblem(chain, 'route', 'classify')).toContain('Another step');
    expect(stepIdProblem(chain, 'route', 'ticket')).toContain('An input');
    expect(stepIdProblem(chain, 'route', '9lives')).toContain('Letters, digits');
    expect(stepIdProblem(chain, 'route', 'router')).toBeNull();
    expect(renameStepId(chain, 'route', 'classify', stepRegistry)).toBe(chain);
    expect(renameStepId(chain, 'ghost', 'x', stepRegistry)).toBe(chain);
  });
});

describe('setBudgetLimit', () => {
  it('sets and clears limits, and drops an empty budget', async () => {
    const { setBudgetLimit, createEmptyChain } = await import('./edit.ts');
    const chain = createEmptyChain('c');
    const one = setBudgetLimit(chain, 'maxSteps', 5);
    expect(one.budget).toEqual({ maxSteps: 5 });
    expect(setBudgetLimit(one, 'maxSteps', 5)).toBe(one);
    const two = setBudgetLimit(one, 'maxCostUsd', 0.5);
    expect(two.budget).toEqual({ maxSteps: 5, maxCostUsd: 0.5 });
    const cleared = setBudgetLimit(setBudgetLimit(two, 'maxSteps', undefined), 'maxCostUsd', undefined);
    expect('budget' in cleared).toBe(false);
  });
});
