import { describe, expect, it } from 'vitest';
import { twoStepChain } from '../../src/testing/index.ts';
import { examplePrompt } from './prompt-estimate.ts';

describe('examplePrompt', () => {
  it('fills inputs from their examples and upstream outputs from schema examples, framing untrusted text', () => {
    const base = twoStepChain();
    const chain = { ...base, inputs: base.inputs.map((i) => (i.name === 'question' ? { ...i, example: 'When is the deadline?' } : i)) };
    const estimate = examplePrompt(chain, chain.steps[1]!)!;
    expect(estimate.bindings.map((b) => [b.name, b.source])).toEqual([['facts', 'schema example'], ['question', 'example']]);
    expect(estimate.text).toContain('When is the deadline?');
    expect(estimate.text).toContain('fact example');
    expect(estimate.text).toContain('<data name="question">');
    expect(examplePrompt(chain, chain.steps[2]!)).toBeNull();
    expect(examplePrompt(chain, chain.steps[0]!)?.bindings).toEqual([{ name: 'document', text: '', source: 'no example' }]);
  });
});
