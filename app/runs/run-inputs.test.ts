import { describe, expect, it } from 'vitest';
import type { Chain } from '../../src/chain/index.ts';
import { runBlocker } from '../stores/selectors.ts';
import { defaultInputText, inputProblems, inputValues } from './run-inputs.ts';

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

describe('inputs named like Object.prototype members', () => {
  const proto = {
    inputs: ['__proto__', 'constructor', 'toString', 'hasOwnProperty'].map((name) => ({ name, schema: { type: 'string' }, trust: 'trusted', required: true })),
  } as unknown as Chain;

  it('are values like any other: prefilled, checked and passed to the run as own keys', () => {
    expect(proto.inputs.map((i) => defaultInputText(i, {}))).toEqual(['', '', '', '']);
    const texts = JSON.parse('{"__proto__": "p", "constructor": "c", "toString": "t", "hasOwnProperty": "h"}') as Record<string, string>;
    const values = inputValues(proto, texts);
    expect(Object.keys(values)).toEqual(['__proto__', 'constructor', 'toString', 'hasOwnProperty']);
    expect(Object.getPrototypeOf(values)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(values, '__proto__')?.value).toBe('p');
    expect(inputProblems(proto, texts)).toEqual({});
  });

  it('are reported missing by their own name, not found on the prototype', () => {
    const problems = inputProblems(proto, {});
    expect(Object.keys(problems)).toEqual(['__proto__', 'constructor', 'toString', 'hasOwnProperty']);
    expect(Object.getOwnPropertyDescriptor(problems, 'constructor')?.value).toBe('constructor is required');
    expect(Object.getOwnPropertyDescriptor(problems, '__proto__')?.value).toBe('__proto__ is required');
  });
});

describe('runBlocker', () => {
  it('puts an unsaved editor before the chain problems, and is null when nothing blocks', () => {
    const problem = { path: '$.steps[0].config.prompt', message: 'x' };
    expect(runBlocker([{ stepId: 'model_1', field: 'Output schema', message: 'Not valid JSON: Unexpected end' }], [problem]))
      .toBe('model_1: the output schema is not saved (Not valid JSON: Unexpected end). Fix it or undo the edit to run.');
    expect(runBlocker([], [problem, problem])).toBe('Fix the 2 problems first (see Problems).');
    expect(runBlocker([], [])).toBeNull();
    // A design error blocks Run with its reason, and says how many more there are.
    const unbound = { code: 'missing-binding', severity: 'error' as const, stepId: 'billing_reply', message: 'Output reads "value" but nothing is bound to it' };
    expect(runBlocker([], [], [unbound])).toBe('billing_reply: Output reads "value" but nothing is bound to it');
    expect(runBlocker([], [], [unbound, unbound])).toContain('(and 1 more under Problems)');
  });
});
