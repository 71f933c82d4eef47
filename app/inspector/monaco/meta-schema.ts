/**
 * A compact JSON Schema for JSON Schemas (the draft 2020-12 keywords a chain's output
 * contract uses), for Monaco's squiggles, hovers and completion while editing an output
 * schema. The check chain validation runs (schema-check.ts, src/schema) remains the judge of what is saved.
 */
const types = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'];
const nonNegativeInteger = { type: 'integer', minimum: 0 };
const schemaArray = { type: 'array', minItems: 1, items: { $ref: '#' } };
const schemaMap = { type: 'object', additionalProperties: { $ref: '#' } };

export const JSON_SCHEMA_META_URI = 'seamscope://schemas/json-schema-2020-12';

export const jsonSchemaMetaSchema = {
  $id: JSON_SCHEMA_META_URI,
  title: 'JSON Schema (draft 2020-12)',
  type: ['object', 'boolean'],
  properties: {
    $schema: { type: 'string', description: 'Which JSON Schema draft this is.' },
    $id: { type: 'string' },
    $ref: { type: 'string' },
    $defs: schemaMap,
    definitions: schemaMap,
    $comment: { type: 'string' },
    title: { type: 'string' },
    description: { type: 'string', description: 'Sent to the model with the schema: say what the field is for.' },
    type: {
      description: 'The JSON type(s) the value must have.',
      anyOf: [{ enum: types }, { type: 'array', items: { enum: types }, minItems: 1, uniqueItems: true }],
    },
    enum: { type: 'array', description: 'The only values allowed.' },
    const: {},
    properties: { ...schemaMap, description: 'Each named field and its schema.' },
    patternProperties: schemaMap,
    additionalProperties: { $ref: '#', description: 'false forbids fields not listed in properties.' },
    propertyNames: { $ref: '#' },
    required: { type: 'array', items: { type: 'string' }, uniqueItems: true },
    minProperties: nonNegativeInteger,
    maxProperties: nonNegativeInteger,
    items: { $ref: '#' },
    prefixItems: schemaArray,
    contains: { $ref: '#' },
    minItems: nonNegativeInteger,
    maxItems: { ...nonNegativeInteger, description: 'Cap arrays: an unbounded selection drifts towards the whole document.' },
    uniqueItems: { type: 'boolean' },
    minLength: nonNegativeInteger,
    maxLength: nonNegativeInteger,
    pattern: { type: 'string', format: 'regex' },
    format: { type: 'string' },
    minimum: { type: 'number' },
    maximum: { type: 'number' },
    exclusiveMinimum: { type: 'number' },
    exclusiveMaximum: { type: 'number' },
    multipleOf: { type: 'number', exclusiveMinimum: 0 },
    allOf: schemaArray,
    anyOf: schemaArray,
    oneOf: schemaArray,
    not: { $ref: '#' },
    if: { $ref: '#' },
    then: { $ref: '#' },
    else: { $ref: '#' },
    default: {},
    examples: { type: 'array' },
  },
};
