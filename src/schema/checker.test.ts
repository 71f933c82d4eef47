import { describe, expect, it, vi } from 'vitest';
import { PEER_BENCH_SCHEMAS } from '../testing/schema-fixtures.ts';
import { createSchemaChecker } from './checker.ts';
import * as interpreter from './interpret.ts';

// The interpreter, counted: the checker must leave it alone for a value the compiled closures accept.
vi.mock('./interpret.ts', async (original) => {
  const actual = await original<typeof import('./interpret.ts')>();
  return { ...actual, interpret: vi.fn(actual.interpret) };
});
const interpret = vi.mocked(interpreter.interpret);

const stepSchema = PEER_BENCH_SCHEMAS[0] as Record<string, unknown>;
const answer = { step: 3, title: 'A title', summary: 'A summary', keywords: ['a', 'b'], confidence: 0.75, next_action: 'refine' };

describe('the checker\'s compiled path', () => {
  it('answers a conforming value without interpreting, and a failing one with the interpreter\'s words', () => {
    const check = createSchemaChecker();
    interpret.mockClear();
    expect(check(stepSchema, answer)).toEqual([]);
    expect(check(stepSchema, { ...answer, step: 2 })).toEqual([]);
    expect(interpret).not.toHaveBeenCalled();
    expect(check(stepSchema, { ...answer, step: 0, extra: true })).toEqual(['(root): must NOT have additional properties ("extra")', '/step: must be >= 1']);
    expect(interpret).toHaveBeenCalledTimes(1);
  });

  it('interprets a schema outside the compiled subset, and one with $schema through its stripped root', () => {
    const check = createSchemaChecker();
    interpret.mockClear();
    expect(check({ anyOf: [{ type: 'string' }, { type: 'null' }] }, null)).toEqual([]);
    expect(interpret).toHaveBeenCalledTimes(1);
    interpret.mockClear();
    const draft7 = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'string', minLength: 2 };
    expect(check(draft7, 'ab')).toEqual([]);
    expect(interpret).not.toHaveBeenCalled();
    expect(check(draft7, 'a')).toEqual(['(root): must NOT have fewer than 2 characters']);
    expect(check(draft7, 'a')).toEqual(['(root): must NOT have fewer than 2 characters']);
    // The same root object both times: the interpreter's per-node cache holds across calls.
    expect(interpret.mock.calls[0]?.[0]).toBe(interpret.mock.calls[1]?.[0]);
    expect(interpret.mock.calls[0]?.[0]).not.toHaveProperty('$schema');
  });

  it('still answers a broken schema first, without compiling or interpreting it', () => {
    const check = createSchemaChecker();
    interpret.mockClear();
    expect(check({ type: 'strin' }, 'x')).toEqual(['the schema itself is not a valid JSON Schema: /type: "strin" is not a JSON Schema type (one of null, boolean, object, array, number, string, integer)']);
    expect(check(true, 'x')).toEqual([]);
    expect(check(false, 'x')).toEqual(['(root): boolean schema is false']);
    expect(interpret).toHaveBeenCalledTimes(1);
  });
});
