import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject } from 'ajv';
import { describe, expect, it } from 'vitest';
import { createSchemaChecker } from './checker.ts';
import { ORACLE_SCHEMAS as schemas, ORACLE_VALUES as values } from '../testing/schema-fixtures.ts';

// ajv 8 is the oracle the interpreter's words, pointers and order were taken from.
const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
const compiled = new Map<unknown, ReturnType<typeof ajv.compile>>();
function ajvMessages(schema: Record<string, unknown> | boolean, value: unknown): string[] {
  const { $schema: _ignored, ...rest } = typeof schema === 'object' ? schema : {};
  let fn = compiled.get(schema);
  if (!fn) compiled.set(schema, (fn = ajv.compile(typeof schema === 'object' ? rest : schema)));
  if (fn(value)) return [];
  return (fn.errors as ErrorObject[]).map((e) => {
    const extra = e.keyword === 'additionalProperties' ? ` ("${String((e.params as { additionalProperty?: string }).additionalProperty)}")`
      : e.keyword === 'enum' ? ` (one of ${JSON.stringify((e.params as { allowedValues?: unknown }).allowedValues)})` : '';
    return `${e.instancePath || '(root)'}: ${e.message ?? ''}${extra}`;
  });
}

describe('the interpreting validator', () => {
  it('words, points at and orders every problem as ajv 8 does', () => {
    const check = createSchemaChecker();
    const mismatches = schemas.flatMap((s) => values.map((v) => ({ s, v, want: ajvMessages(s, v), got: check(s as Record<string, unknown>, v) })))
      .filter((c) => JSON.stringify(c.want) !== JSON.stringify(c.got));
    expect(mismatches.slice(0, 5)).toEqual([]);
  });

  it('enforces the formats it names, with ajv-formats\' wording', () => {
    const check = createSchemaChecker();
    const email = { type: 'string', format: 'email' };
    expect(check(email, 'ada@example.org')).toEqual([]);
    expect(check(email, 'not an email')).toEqual(['(root): must match format "email"']);
    expect(check({ type: 'string', format: 'date' }, '2024-02-29')).toEqual([]);
    expect(check({ type: 'string', format: 'date' }, '2023-02-29')).toEqual(['(root): must match format "date"']);
    expect(check({ type: 'string', format: 'date-time' }, '2024-05-01T10:00:00Z')).toEqual([]);
    expect(check({ type: 'string', format: 'date-time' }, '2024-05-01T25:00:00Z')).toEqual(['(root): must match format "date-time"']);
    expect(check({ type: 'string', format: 'uuid' }, '123e4567-e89b-12d3-a456-426614174000')).toEqual([]);
    expect(check({ type: 'string', format: 'ipv4' }, '256.1.1.1')).toEqual(['(root): must match format "ipv4"']);
    // Formats that are not enforced are reported at validate (schema-problems.test.ts), and accept any string here.
    expect(check({ type: 'string', format: 'uri' }, 'anything')).toEqual([]);
  });

  it('matches a backtracking pattern on 10,000 characters and returns', () => {
    const check = createSchemaChecker();
    const hostile = `${'a'.repeat(10_000)}!`;
    expect(check({ type: 'string', pattern: '^(a+)+$' }, hostile)).toEqual(['(root): must match pattern "^(a+)+$"']);
    expect(check({ type: 'object', patternProperties: { '^(a|aa)+$': { type: 'number' } } }, { [hostile]: 'x', aaaa: 'y' })).toEqual(['/aaaa: must be number']);
  });

  it('answers a broken schema with the path of its bad keyword instead of throwing', () => {
    const check = createSchemaChecker();
    expect(check({ type: 'object', properties: { code: { type: 'string', pattern: '(' } } }, {})).toEqual([
      'the schema itself is not a valid JSON Schema: /properties/code/pattern: the pattern "(" is not a valid regular expression: /(/u: Unterminated group',
    ]);
  });

  it('treats inherited names as absent: required "constructor" needs its own property', () => {
    const check = createSchemaChecker();
    expect(check({ type: 'object', required: ['constructor'] }, {})).toEqual(["(root): must have required property 'constructor'"]);
    expect(check({ type: 'object', properties: { toString: { type: 'number' } } }, {})).toEqual([]);
  });
});

describe('validation time grows linearly with the value', () => {
  it('uniqueItems over 50,000 objects and a 1 MB string against nested patterns complete', () => {
    const check = createSchemaChecker();
    const items = Array.from({ length: 50_000 }, (_, i) => ({ id: i, tags: ['x'] }));
    items.push({ id: 7, tags: ['x'] });
    expect(check({ type: 'array', uniqueItems: true }, items)).toEqual(['(root): must NOT have duplicate items (items ## 7 and 50000 are identical)']);
    const big = 'ab'.repeat(500_000);
    expect(check({ type: 'string', pattern: '^((a|b)+)+$', maxLength: 10 }, big)).toEqual(['(root): must NOT have more than 10 characters']);
  });
});

describe('names that are not well-formed UTF-16', () => {
  it('a lone surrogate in a property name is an ordinary key (ajv generated code from it and failed at run time)', () => {
    const check = createSchemaChecker();
    const schema = { type: 'object', properties: { 'x\ud800': { type: 'string' } }, required: ['x\ud800'], additionalProperties: false };
    expect(check(schema, { 'x\ud800': 'ok' })).toEqual([]);
    expect(check(schema, { 'x\ud800': 1 })).toEqual(['/x\ud800: must be string']);
    expect(check(schema, {})).toEqual(["(root): must have required property 'x\ud800'"]);
  });
});

describe('a schema whose branches re-check the value exponentially', () => {
  it('stops with a defined answer instead of freezing the tab', () => {
    const check = createSchemaChecker();
    // Each level's anyOf recurses twice into the rest of the value: 2^depth checks without a budget.
    const schema = { $defs: { n: { anyOf: [{ required: ['x'], properties: { c: { $ref: '#/$defs/n' } } }, { required: ['y'], properties: { c: { $ref: '#/$defs/n' } } }] } }, $ref: '#/$defs/n' };
    let value: Record<string, unknown> = {};
    for (let i = 0; i < 40; i++) value = { c: value };
    expect(check(schema, value)).toEqual([expect.stringMatching(/^\(root\): validation stopped after \d+ checks/)]);
    // A shallow value is answered as usual.
    expect(check(schema, { x: 1, c: { y: 2 } })).toEqual([]);
  });
});
