import { describe, expect, it } from 'vitest';
import type { Chain } from '../../src/chain/schema.ts';
import { runBlocker } from '../stores/selectors.ts';
import { inputProblems, inputValues } from './run-inputs.ts';

const chain = {
  inputs: [
    { name: 'ticket', schema: { type: 'string' }, trust: 'untrusted', required: true },
    { name: 'limits', schema: { type: 'object' }, trust: 'trusted', required: true },
    { name: 'note', schema: { type: 'string' }, trust: 'trusted', required: false },
  ],
} as unknown as Chain;

describe('inputProblems', () => {
  it('names a required input left empty or blank, and a JSON input that is not JSON', () => {
    expect(inputProblems(chain, { ticket: '   ', limits: '{x', note: '' })).toEqual({
      ticket: 'ticket is required',
      limits: 'limits must be JSON (object)',
    });
  });
  it('has nothing to say when every required input is filled and JSON parses', () => {
    const texts = { ticket: 'Order 12 arrived broken', limits: '{"max": 3}', note: '' };
    expect(inputProblems(chain, texts)).toEqual({});
    expect(inputValues(chain, texts)).toEqual({ ticket: 'Order 12 arrived broken', limits: { max: 3 } });
  });
});

describe('runBlocker', () => {
  it('puts an unsaved editor before the chain problems, and is null when nothing blocks', () => {
    const problem = { path: '$.steps[0].config.prompt', message: 'x' };
    expect(runBlocker([{ stepId: 'model_1', field: 'Output schema', message: 'Not valid JSON: Unexpected end' }], [problem]))
      .toBe('model_1: the output schema is not saved (Not valid JSON: Unexpected end). Fix it or undo the edit to run.');
    expect(runBlocker([], [problem, problem])).toBe('Fix the 2 problems first (see Problems).');
    expect(runBlocker([], [])).toBeNull();
  });
});
