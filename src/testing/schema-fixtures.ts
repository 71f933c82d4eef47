/**
 * JSON Schemas and values for the validator's tests: the ajv oracle's (interpret.test.ts), the
 * other schemas the schema tests use, the peer benchmark's, and edge cases for the compiled
 * validity path (compile.test.ts compares it with the interpreter on all of them).
 */
export type Schema = Record<string, unknown> | boolean;

/** Schemas and values the interpreter's words are compared with ajv 8's on (every pair). */
export const ORACLE_SCHEMAS: Schema[] = [
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
export const ORACLE_VALUES: unknown[] = [null, true, false, 0, 1, 2.5, 7, -3, 1e21, 'a', 'abc', 'abcdef', 'AB12', 'p1', 'x', '', ' ab ', 'a b', '\u00a0z\u00a0', 'é😀', '\n\n', '9x', [], [1], [1, 1], ['a', 1], ['a', 1, 2], [1, 1, 1], ['a', 'a'],
  [{ a: 1 }, { a: 1 }], {}, { a: 1 }, { a: 1, b: 2 }, { a: 1, b: 2, c: 3 }, { answer: 'x', section_ids: [] }, { answer: 1, section_ids: ['a', 'b', 'c', 'd', 'e'], extra: true },
  { x_1: 1, x_a: 2, 'a/b~c': 'no' }, { id: 'q1' }, { items: [{ q: 'short' }, { q: 'long enough to pass the check', z: 1 }, 'x'] }, { longname: 1, ab: 2 },
  { v: 1, next: { v: 'two', next: { v: 3.5 } } },
  // Code points against UTF-16 length: the length limits decide most strings without counting.
  '😀😀😀', '😀😀😀😀', '😀😀😀😀😀😀', '😀a', 'ab😀', '\ud800\ud800\ud800', '\ud800😀\udc00a'];

/** The other schemas interpret.test.ts and schema-problems.test.ts check with (sound and broken). */
export const SCHEMA_TEST_SCHEMAS: Schema[] = [
  { type: 'string', format: 'email' }, { type: 'string', format: 'date' }, { type: 'string', format: 'date-time' }, { type: 'string', format: 'uuid' },
  { type: 'string', format: 'ipv4' }, { type: 'string', format: 'uri' }, { type: 'string', pattern: '^(a+)+$' },
  { type: 'object', patternProperties: { '^(a|aa)+$': { type: 'number' } } }, { type: 'array', uniqueItems: true },
  { type: 'string', pattern: '^((a|b)+)+$', maxLength: 10 },
  { type: 'object', properties: { code: { type: 'string', pattern: '(' } } },
  { type: 'object', required: ['constructor'] }, { type: 'object', properties: { toString: { type: 'number' } } },
  { type: 'object', properties: { 'x\ud800': { type: 'string' } }, required: ['x\ud800'], additionalProperties: false },
  { $defs: { n: { anyOf: [{ required: ['x'], properties: { c: { $ref: '#/$defs/n' } } }, { required: ['y'], properties: { c: { $ref: '#/$defs/n' } } }] } }, $ref: '#/$defs/n' },
  // schema-problems.test.ts
  { type: 'object', properties: { a: { type: 'string', pattern: '^[a-z]+$', format: 'email' } }, required: ['a'] },
  { $defs: { n: { type: 'object', properties: { next: { $ref: '#/$defs/n' } } } }, $ref: '#/$defs/n' },
  { properties: { code: { type: 'string', pattern: '(' } } }, { patternProperties: { '[': {} } },
  { type: 'object', properties: { n: { type: 'strin' } } }, { type: ['string', 'nul'] },
  { $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } }, $ref: '#/$defs/a' }, { allOf: [{ $ref: '#' }] },
  { properties: { x: { $ref: '#/$defs/missing' } } }, { $ref: 'https://example.com/s.json' },
  { type: 'object', properties: { 'bad\ud800': { type: 'string' } }, required: ['bad\ud800'] },
  { properties: { a: { pattern: '^\\uD800$' } } }, { patternProperties: { '\udc00': {} } },
  { pattern: '(a)\\1' }, { pattern: '^(?=.*\\d)' }, { properties: { p: { pattern: '(?<!x)y' } } },
  { minLength: -1, maxItems: 1.5, required: 'a', multipleOf: 0, anyOf: [], exclusiveMaximum: true },
  { properties: { a: { unevaluatedProperties: false } } }, { properties: { a: 'string' } },
  { properties: { site: { type: 'string', format: 'uri' } } },
];

/** The peer benchmark's four step schemas (../shared/bench/peers/src/lib/spec.mjs), copied: the common contract. */
export const PEER_BENCH_SCHEMAS: Schema[] = [
  {
    type: 'object', additionalProperties: false, required: ['step', 'title', 'summary', 'keywords', 'confidence', 'next_action'],
    properties: {
      step: { type: 'integer', minimum: 1 }, title: { type: 'string', minLength: 1 }, summary: { type: 'string', minLength: 1 },
      keywords: { type: 'array', items: { type: 'string' }, minItems: 1 }, confidence: { type: 'number', minimum: 0, maximum: 1 },
      next_action: { type: 'string', enum: ['refine', 'expand', 'stop'] },
    },
  },
  {
    type: 'object', additionalProperties: false, required: ['unit', 'findings', 'risk', 'score'],
    properties: {
      unit: { type: 'string' }, findings: { type: 'array', items: { type: 'string' }, minItems: 1 },
      risk: { type: 'string', enum: ['low', 'medium', 'high'] }, score: { type: 'number', minimum: 0, maximum: 10 },
    },
  },
  {
    type: 'object', additionalProperties: false, required: ['report', 'top_risks', 'overall_score'],
    properties: { report: { type: 'string', minLength: 1 }, top_risks: { type: 'array', items: { type: 'string' } }, overall_score: { type: 'number', minimum: 0, maximum: 10 } },
  },
  {
    type: 'object', additionalProperties: false, required: ['label', 'priority', 'reason'],
    properties: { label: { type: 'string', enum: ['billing', 'bug', 'feature', 'other'] }, priority: { type: 'integer', minimum: 1, maximum: 5 }, reason: { type: 'string', minLength: 1 } },
  },
];

/** A schema with its own `__proto__` keys, as JSON.parse makes them (an object literal would set the prototype). */
const parsed = (json: string) => JSON.parse(json) as Record<string, unknown>;

/** Edge cases for the compiled path: each is within the compiled subset. */
export const EDGE_SCHEMAS: Schema[] = [
  // Length in code points: astral characters, lone surrogates.
  { type: 'string', maxLength: 1 }, { type: 'string', maxLength: 2 }, { type: 'string', minLength: 2 }, { type: 'string', minLength: 3, maxLength: 3 }, { maxLength: 0 },
  // multipleOf and the parseInt rule, -0, non-finite numbers.
  { type: 'number', multipleOf: 1 }, { type: 'number', multipleOf: 0.1 }, { type: 'integer', multipleOf: 3 }, { multipleOf: 0.01 },
  { minimum: 0 }, { exclusiveMinimum: 0 }, { type: 'number', maximum: 0 }, { exclusiveMaximum: 0, minimum: -1 }, { const: 0 }, { enum: [0, 'a'] },
  { type: 'number' }, { type: 'integer' }, { type: ['number', 'null'] }, { type: ['integer', 'string'], minimum: 2, maxLength: 1 },
  // Arrays against objects, keywords without a type.
  { type: 'object' }, { type: 'array' }, { minProperties: 1 }, { maxProperties: 0 }, { minItems: 1 }, { maxItems: 0 }, { required: ['0'] },
  { required: ['a'], properties: { a: { type: 'string' } } }, { type: ['object', 'array'], minItems: 1, minProperties: 1 },
  // `__proto__`: a property schema ajv ignores, a required name, an own key of the value.
  parsed('{"type":"object","properties":{"__proto__":{"type":"string"},"a":{"type":"number"}},"additionalProperties":false}'),
  parsed('{"type":"object","properties":{"__proto__":{"type":"string"}}}'),
  { type: 'object', required: ['__proto__'] }, { type: 'object', properties: { a: {} }, additionalProperties: false },
  { type: 'object', required: ['toString', 'constructor'] }, { type: 'object', properties: { hasOwnProperty: { type: 'string' } }, additionalProperties: false },
  // Nested additionalProperties schemas.
  { type: 'object', additionalProperties: { type: 'object', additionalProperties: { type: 'integer', minimum: 0 } } },
  { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'array', items: { type: 'number' } } },
  { additionalProperties: true, properties: { a: true, b: false } }, { type: 'object', additionalProperties: {} },
  // prefixItems with items false / a schema / absent.
  { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false }, { type: 'array', prefixItems: [{ const: 1 }], items: { type: 'string' } },
  { prefixItems: [true, false] }, { type: 'array', items: false }, { type: 'array', items: true, minItems: 2 }, { type: 'array', prefixItems: [{ type: 'null' }], minItems: 1, maxItems: 2 },
  // Type arrays with nullable, nullable alone.
  { type: ['string', 'integer'], nullable: true, minLength: 2, minimum: 3 }, { type: 'string', nullable: true, enum: ['a', null] }, { type: 'string', nullable: true, enum: ['a'] },
  { type: 'object', nullable: true, required: ['x'] }, { nullable: true, minLength: 1 }, { type: ['null', 'boolean'] }, { type: 'boolean', nullable: false },
  // uniqueItems with scalar, mixed and structured items.
  { type: 'array', uniqueItems: true, items: { type: 'string' } }, { type: 'array', uniqueItems: true, items: { type: ['string', 'number'] } },
  { uniqueItems: true, items: { type: 'object' } }, { type: 'array', uniqueItems: false },
  // const and enum of structured values, NaN-free and mixed.
  { const: { a: [1, 2] } }, { const: [] }, { const: null }, { enum: [[1], { a: 1 }, 'x'] }, { enum: [] }, { type: 'string', enum: ['refine', 'expand'] },
  // Patterns and formats.
  { type: 'string', pattern: 'ab' }, { pattern: '^\\d+$', minLength: 2 }, { type: 'string', format: 'hostname' }, { type: 'string', format: 'time' }, { format: 'email' },
  // Annotations only, $defs without a $ref, boolean schemas.
  { description: 'anything', title: 'x', examples: [1] }, { $defs: { unused: { type: 'string' } }, type: 'integer' }, {}, true, false,
  // OpenAI strict-mode style.
  {
    type: 'object', additionalProperties: false, required: ['answer', 'citations', 'confidence', 'notes'],
    properties: {
      answer: { type: 'string', minLength: 1, maxLength: 200 }, confidence: { type: ['number', 'null'], minimum: 0, maximum: 1 },
      citations: { type: 'array', minItems: 1, maxItems: 3, items: { type: 'object', additionalProperties: false, required: ['id', 'quote'], properties: { id: { type: 'string', pattern: '^s\\d+$' }, quote: { type: 'string' } } } },
      notes: { type: ['string', 'null'] }, date: { type: 'string', format: 'date' },
    },
  },
];

/** Schemas outside the compiled subset: the interpreter decides them. */
export const OUTSIDE_SCHEMAS: Schema[] = [
  { $ref: '#/$defs/a', $defs: { a: { type: 'string' } } }, { anyOf: [{ type: 'string' }] }, { oneOf: [{ type: 'string' }] }, { not: { type: 'null' } },
  { if: { type: 'string' }, then: { minLength: 1 } }, { then: { minLength: 1 } }, { allOf: [{ type: 'string' }] }, { type: 'array', contains: { type: 'string' } },
  { type: 'array', minContains: 1 }, { type: 'object', patternProperties: { '^a': { type: 'string' } } }, { type: 'object', propertyNames: { maxLength: 3 } },
  { type: 'object', dependentRequired: { a: ['b'] } }, { type: 'object', properties: { a: { anyOf: [{ type: 'string' }, { type: 'null' }] } } },
  { type: 'array', items: { $ref: '#' } }, { type: 'object', additionalProperties: { not: {} } }, { prefixItems: [{ oneOf: [true] }] },
  { unevaluatedProperties: false }, { type: 'strin' }, { type: [] }, { type: 'string', pattern: '(' }, { pattern: '(a)\\1' }, { minimum: '1' }, { enum: 'a' },
  { required: 'a' }, { required: [1] }, { properties: { a: 'string' } }, { items: [{ type: 'string' }] }, { uniqueItems: 'yes' }, { multipleOf: Infinity },
];

/** Values every schema is tried with, beyond the oracle's and the ones generated from each schema. */
export const EDGE_VALUES: unknown[] = [
  -0, NaN, Infinity, -Infinity, 1e21, 3e21, 1e300, 0.1, 0.3, 0.30000000000000004, 1.5, 3, 4, 1e-7, -1, Number.MAX_SAFE_INTEGER + 2,
  '😀', '😀😀', '\ud800', '\udc00\ud800', 'a\udc00', '\ud83d\ude00a', 'aa', 'abc', 's1', 'refine', 'stop', '2024-02-29', '23:59:60Z', 'ada@example.org', 'example.com.',
  [], [null], [1, '1'], ['x', 'x'], [1, 1.0], [{ a: 1 }, { a: 1 }], [[1], [1]], ['a', 2, 'b'], [null, null, null], { 0: 'x' }, { a: [1, 2] },
  parsed('{"__proto__":"x"}'), parsed('{"__proto__":1,"a":1}'), parsed('{"a":1,"__proto__":{"b":1}}'), { constructor: 1, toString: 2 }, { hasOwnProperty: 'x' },
  { a: { b: { c: 1 } } }, { a: { b: { c: -1 } } }, { a: { b: 'x' } }, { x: null }, { x: 1 }, Object.create(null) as unknown,
];
