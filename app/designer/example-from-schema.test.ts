import { readFileSync, readdirSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parseChain } from '../../src/chain/parse.ts';
import { stepRegistry } from '../../src/steps/index.ts';
import { makeBenchChain } from './bench-fixture.ts';
import { exampleFromSchema } from './example-from-schema.ts';

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
const valid = (schema: object, value: unknown) => {
  const check = ajv.compile(schema);
  return check(value) ? [] : check.errors;
};

const demoDir = new URL('../../public/demo/', import.meta.url);
const demoSchemas = readdirSync(demoDir).filter((f) => f.endsWith('.chain.json')).flatMap((f) => {
  const parsed = parseChain(readFileSync(new URL(f, demoDir), 'utf8'), stepRegistry);
  if (!parsed.ok) return [];
  return parsed.chain.steps.flatMap((step) => {
    const def = stepRegistry.get(step.kind);
    const config = def?.config.safeParse(step.config);
    const schema = def && config?.success ? def.outputSchema(config.data) : null;
    return schema ? [{ where: `${f} ${step.id}`, schema }] : [];
  });
});

describe('exampleFromSchema', () => {
  it('gives a schema-true example for every output schema in the demo chains and the bench fixture', () => {
    const bench = makeBenchChain(20).steps.map((s) => ({ where: s.id, schema: s.config.outputSchema as object }));
    expect(demoSchemas.length).toBeGreaterThan(10);
    for (const { where, schema } of [...demoSchemas, ...bench]) expect([where, valid(schema, exampleFromSchema(schema))]).toEqual([where, []]);
  });

  it('respects ranges, lengths, unique items, formats, nullable types and combinators', () => {
    const schema = {
      type: 'object',
      properties: {
        score: { type: 'number', minimum: 0, maximum: 1 },
        count: { type: 'integer', exclusiveMinimum: 3, multipleOf: 5 },
        code: { type: 'string', minLength: 30, maxLength: 40 },
        tags: { type: 'array', items: { type: 'string' }, minItems: 3, uniqueItems: true },
        when: { type: 'string', format: 'date-time' },
        maybe: { type: ['null', 'string'] },
        kind: { anyOf: [{ const: 'a' }, { type: 'number' }] },
        both: { allOf: [{ type: 'object', properties: { x: { type: 'boolean' } } }, { required: ['x'] }] },
        none: { type: 'array', items: { type: 'string' }, maxItems: 0 },
      },
      required: ['score', 'count', 'code', 'tags', 'when', 'maybe', 'kind', 'both', 'none'],
      additionalProperties: false,
    };
    const example = exampleFromSchema(schema) as Record<string, unknown>;
    expect(valid(schema, example)).toEqual([]);
    expect(example).toMatchObject({ score: 0.5, count: 5, when: '2025-01-31T09:30:00Z', kind: 'a', none: [] });
  });

  it('fills a dynamic enum from the caller', () => {
    const schema = { type: 'object', properties: { section: { type: 'string', 'x-dynamicEnum': { binding: 'document', from: 'sectionIds' } } } };
    expect(exampleFromSchema(schema, { dynamicEnum: () => '§ 1395ff(a)' })).toEqual({ section: '§ 1395ff(a)' });
  });
});
