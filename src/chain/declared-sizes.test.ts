import { describe, expect, it } from 'vitest';
import { twoStepChain } from '../testing/chain-fixtures.ts';
import { stepRegistry } from '../steps/index.ts';
import { parseChain } from './parse.ts';
import type { Chain } from './schema.ts';

const problemsOf = (value: unknown, limits = {}) => {
  const result = parseChain(value, stepRegistry, limits);
  return result.ok ? [] : result.problems;
};

function withInputSchema(schema: Record<string, unknown>): Chain {
  const chain = twoStepChain();
  chain.inputs[0] = { ...(chain.inputs[0] as Chain['inputs'][number]), schema };
  return chain;
}

function withOutputSchema(schema: Record<string, unknown>): Chain {
  const chain = twoStepChain();
  (chain.steps[0] as Chain['steps'][number]).config.outputSchema = schema;
  return chain;
}

describe('declared sizes are bounded at validate', () => {
  it.each([
    ['minItems', { type: 'array', minItems: 100_000_000 }, '$.inputs[0].schema.minItems'],
    ['maxItems', { type: 'array', maxItems: 1e12 }, '$.inputs[0].schema.maxItems'],
    ['minLength', { type: 'string', minLength: 50_000_000 }, '$.inputs[0].schema.minLength'],
    ['maxProperties', { type: 'object', maxProperties: 1e9 }, '$.inputs[0].schema.maxProperties'],
    ['minContains', { type: 'array', contains: { type: 'string' }, minContains: 1e9 }, '$.inputs[0].schema.minContains'],
    ['nested minItems', { type: 'object', properties: { list: { type: 'array', items: { type: 'array', minItems: 1e8 } } } }, '$.inputs[0].schema.properties.list.items.minItems'],
    ['in anyOf', { anyOf: [{ type: 'string' }, { type: 'string', minLength: 1e9 }] }, '$.inputs[0].schema.anyOf[1].minLength'],
    ['in $defs', { $defs: { big: { type: 'array', minItems: 1e9 } } }, '$.inputs[0].schema["$defs"].big.minItems'],
    ['enum size', { enum: Array.from({ length: 10_001 }, (_, i) => i) }, '$.inputs[0].schema.enum'],
  ])('refuses %s with its path', (_name, schema, path) => {
    const problems = problemsOf(withInputSchema(schema));
    expect(problems.map((p) => p.path)).toContain(path);
    expect(problems.find((p) => p.path === path)?.message).toMatch(/over the limit of \d+/);
  });

  it('refuses the same in a model step\'s output schema and a gate\'s schema check', () => {
    expect(problemsOf(withOutputSchema({ type: 'object', properties: { facts: { type: 'array', minItems: 100_000_000 } } }))[0]).toEqual({
      path: '$.steps[0].config.outputSchema.properties.facts.minItems', message: 'declares minItems: 100000000, over the limit of 10000',
    });
    const chain = twoStepChain();
    chain.steps.splice(2, 0, { id: 'check', kind: 'gate', name: 'Check', position: { x: 0, y: 0 }, config: { bindings: { value: 'steps.answer' }, check: { type: 'jsonSchema', schema: { type: 'string', maxLength: 1e10 } } } });
    expect(problemsOf(chain).map((p) => p.path)).toContain('$.steps[2].config.check.schema.maxLength');
  });

  it('refuses schemas nested deeper than the limit', () => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 40; i++) schema = { type: 'array', items: schema };
    expect(problemsOf(withInputSchema(schema))[0]?.message).toContain('deeper than 32 levels of subschemas');
  });

  it('refuses non-finite numbers and duplicate keys in the file text, with their path', () => {
    const text = JSON.stringify(withInputSchema({ type: 'string', maxLength: 5 })).replace('"maxLength":5', '"maxLength":1e400');
    expect(problemsOf(text)[0]?.path).toBe('$.inputs[0].schema.maxLength');
    expect(problemsOf(text)[0]?.message).toContain('1e400 is too large');
    const twice = JSON.stringify(twoStepChain()).replace('"prompt":"Facts:', '"prompt":"shown","prompt":"Facts:');
    expect(problemsOf(twice)[0]).toMatchObject({ path: '$.steps[1].config.prompt', message: expect.stringContaining('"prompt" appears twice') });
  });

  it('takes configurable limits, and accepts what is within them', () => {
    const chain = withInputSchema({ type: 'array', maxItems: 500 });
    expect(problemsOf(chain)).toEqual([]);
    expect(problemsOf(chain, { maxDeclaredItems: 100 })[0]?.message).toBe('declares maxItems: 500, over the limit of 100');
    expect(problemsOf(twoStepChain(), { steps: 2 })[0]).toEqual({ path: '$.steps', message: 'has 3 steps, over the limit of 2' });
    expect(problemsOf(withInputSchema({ type: 'array', minItems: 100_000_000 }), { maxDeclaredItems: 1e9 })).toEqual([]);
  });

  it('leaves example values and free-form meta alone', () => {
    const chain = twoStepChain();
    chain.meta = { notes: { maxItems: 1e9, minLength: 1e9 } };
    chain.inputs[0] = { ...(chain.inputs[0] as Chain['inputs'][number]), example: { maxItems: 1e9 } };
    expect(problemsOf(chain)).toEqual([]);
  });
});
