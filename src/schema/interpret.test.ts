import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject } from 'ajv';
import { describe, expect, it } from 'vitest';
import { createSchemaChecker } from './checker.ts';

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

const schemas: (Record<string, unknown> | boolean)[] = [
  { type: 'object', properties: { answer: { type: 'string' }, section_ids: { type: 'array', items: { type: 'string' }, maxItems: 4, minItems: 1 } }, required: ['answer', 'section_ids'], additionalProperties: false },
  { type: 'string', minLength: 3, maxLength: 5 }, { type: 'string', minLength: 4, maxLength: 4 }, { type: 'string', enum: ['a', 'b'] }, { enum: [1, 'x', null, { a: 1 }] }, { const: 'fixed' },
  { type: 'integer', minimum: 1, maximum: 10 }, { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1, multipleOf: 0.25 }, { type: ['string', 'null'] },
  { type: 'array', uniqueItems: true }, { type: 'array', items: { type: 'integer' }, uniqueItems: true },
  { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false }, { type: 'array', contains: { type: 'string' } },
  { type: 'array', contains: { const: 1 }, minContains: 2, maxContains: 3 }, { type: 'object', minProperties: 1, maxProperties: 2 },
  { type: 'object', patternProperties: { '^x_\\d+$': { type: 'number' } }, additionalProperties: false }, { type: 'object', propertyNames: { maxLength: 3 } },
  { type: 'object', dependentRequired: { a: ['b', 'c'] } }, { anyOf: [{ type: 'string' }, { type: 'number', minimum: 5 }] },
  { oneOf: [{ type: 'string' }, { type: 'string', minLength: 2 }] }, { not: { type: 'null' } }, { allOf: [{ minLength: 2 }, { maxLength: 4 }], type: 'string' },
  { if: { type: 'string' }, then: { minLength: 3 }, else: { type: 'number' } }, { type: 'string', pattern: '^[A-Z]{2}\\d+$' },
  { type: 'string', pattern: '^\\s*\\S+\\s*$' }, { type: 'string', pattern: '^.{2}$' }, { type: 'string', pattern: '(?<n>\\d)x|^\\w\\b' },
  { $defs: { id: { type: 'string', pattern: '^p\\d+$' } }, type: 'object', properties: { id: { $ref: '#/$defs/id' } }, required: ['id'] },
  { type: 'object', properties: { items: { type: 'array', items: { type: 'object', properties: { q: { type: 'string', minLength: 20 } }, required: ['q'], additionalProperties: false } } } },
  { $defs: { node: { type: 'object', properties: { next: { $ref: '#/$defs/node' }, v: { type: 'integer' } } } }, $ref: '#/$defs/node' },
  { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { 'a/b~c': { type: 'boolean' } } }, true, false,
];
const values: unknown[] = [null, true, false, 0, 1, 2.5, 7, -3, 1e21, 'a', 'abc', 'abcdef', 'AB12', 'p1', 'x', '', ' ab ', 'a b', '\u00a0z\u00a0', 'é😀', '\n\n', '9x', [], [1], [1, 1], ['a', 1], ['a', 1, 2], [1, 1, 1], ['a', 'a'],
  [{ a: 1 }, { a: 1 }], {}, { a: 1 }, { a: 1, b: 2 }, { a: 1, b: 2, c: 3 }, { answer: 'x', section_ids: [] }, { answer: 1, section_ids: ['a', 'b', 'c', 'd', 'e'], extra: true },
  { x_1: 1, x_a: 2, 'a/b~c': 'no' }, { id: 'q1' }, { items: [{ q: 'short' }, { q: 'long enough to pass the check', z: 1 }, 'x'] }, { longname: 1, ab: 2 },
  { v: 1, next: { v: 'two', next: { v: 3.5 } } },
  // Code points against UTF-16 length: the length limits decide most strings without counting.
  '😀😀😀', '😀😀😀😀', '😀😀😀😀😀😀', '😀a', 'ab😀', '\ud800\ud800\ud800', '\ud800😀\udc00a'];

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
