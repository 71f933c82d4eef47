import { describe, expect, it } from 'vitest';
import { routedChain, twoStepChain } from '../testing/chain-fixtures.ts';
import { copySteps, pasteSteps } from './clipboard.ts';
import { canRedo, canUndo, createHistory, record, redo, undo } from './history.ts';
import { applyLayout, autoLayout } from './layout.ts';
import { parseChain } from './parse.ts';
import { stepRegistry } from '../steps/index.ts';

describe('copy and paste', () => {
  it('pastes with fresh ids, rewires refs between pasted steps, keeps refs to existing ones', () => {
    const chain = twoStepChain();
    const { chain: next, pasted } = pasteSteps(chain, copySteps(chain, ['extract', 'answer']), undefined, stepRegistry);
    expect(pasted).toEqual(['extract_1', 'answer_1']);
    const answer = next.steps.find((s) => s.id === 'answer_1')!;
    expect(answer.config.bindings).toEqual({ facts: 'steps.extract_1.facts', question: 'inputs.question' });
    expect(answer.position).toEqual({ x: 320, y: 40 });
    expect(parseChain(next, stepRegistry).ok).toBe(true);
  });

  it('drops references that would dangle in the destination and remaps route targets', () => {
    const chain = routedChain();
    const fragment = copySteps(chain, ['route', 'billing_reply']);
    const empty = { ...chain, steps: [] };
    const { chain: next } = pasteSteps(empty, fragment, undefined, stepRegistry);
    const router = next.steps.find((s) => s.kind === 'router')!;
    expect(router.config.bindings).toEqual({});
    expect(router.config.routes).toEqual([{ equals: 'billing', to: 'billing_reply_1', label: 'billing' }]);
    expect(router.config.defaultTo).toBeNull();
  });
});

describe('history', () => {
  it('undoes and redoes whole edits, coalescing typing in one field', () => {
    let h = createHistory('a');
    h = record(h, 'ab', { coalesceKey: 'prompt', at: 0 });
    h = record(h, 'abc', { coalesceKey: 'prompt', at: 300 });
    h = record(h, 'abcd', { coalesceKey: 'name', at: 400 });
    expect(h.past).toEqual(['a', 'abc']);
    h = undo(h);
    expect(h.present).toBe('abc');
    h = undo(h);
    expect(h.present).toBe('a');
    expect(canUndo(h)).toBe(false);
    h = redo(h);
    expect(h.present).toBe('abc');
    h = record(h, 'x');
    expect(canRedo(h)).toBe(false);
  });
});

describe('auto layout', () => {
  it('lays a chain out left to right along its edges', () => {
    const chain = twoStepChain();
    const positions = autoLayout(chain, undefined, stepRegistry);
    const x = (id: string) => positions.get(id)!.x;
    expect(x('extract')).toBeLessThan(x('answer'));
    expect(x('answer')).toBeLessThan(x('final'));
    expect(applyLayout(chain, positions).steps[2]!.position).toEqual(positions.get('final'));
  });
});
