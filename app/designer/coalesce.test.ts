import { describe, expect, it } from 'vitest';
import { moveStep, renameStep, updateInput, updateStepConfig, setBinding } from '../../src/chain/index.ts';
import { twoStepChain } from '../../src/testing/index.ts';
import { coalesceKeyFor } from './coalesce.ts';
import { stepRegistry } from '../../src/steps/index.ts';

describe('coalesceKeyFor', () => {
  const base = twoStepChain();
  it('names the one field a keystroke changed', () => {
    expect(coalesceKeyFor(base, updateStepConfig(base, 'extract', 'prompt', 'x'))).toBe('step:extract:config.prompt');
    expect(coalesceKeyFor(base, renameStep(base, 'answer', 'Reply'))).toBe('step:answer:name');
    expect(coalesceKeyFor(base, { ...base, name: 'N' })).toBe('chain.name');
    expect(coalesceKeyFor(base, updateInput(base, 'document', { description: 'the doc' }, stepRegistry))).toBe('input:document:description');
    expect(coalesceKeyFor(base, updateStepConfig(base, 'extract', 'outputSchema.properties.facts.maxItems', 9))).toBe('step:extract:config.outputSchema');
  });

  it('does not merge moves, binding picks, checkboxes or edits of two things', () => {
    expect(coalesceKeyFor(base, moveStep(base, 'extract', { x: 9, y: 9 }))).toBeUndefined();
    expect(coalesceKeyFor(base, setBinding(base, 'answer', 'doc', 'inputs.document', stepRegistry))).toBeUndefined();
    expect(coalesceKeyFor(base, updateStepConfig(base, 'extract', 'stream', true))).toBeUndefined();
    const two = updateStepConfig(renameStep(base, 'answer', 'R'), 'extract', 'prompt', 'x');
    expect(coalesceKeyFor(base, two)).toBeUndefined();
    expect(coalesceKeyFor(base, { ...base, id: 'other' })).toBeUndefined();
  });
});
