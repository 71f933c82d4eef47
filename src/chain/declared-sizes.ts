import type { StepRegistry } from '../steps/index.ts';
import type { ChainProblem } from './parse.ts';
import type { Chain } from './schema.ts';

/**
 * Sizes a chain declares are bounded when it is validated, not discovered when it runs: a
 * schema with `minItems: 100000000` makes the demo model (and any model asked to honour it)
 * build a hundred-million-item array, and a run that dies of memory after the first paid call
 * is worse than a file refused on import. Every limit is configurable; the defaults are far
 * above what a real chain declares (the demo chains stay below a tenth of each).
 */
export interface ChainLimits {
  /** minItems, maxItems, minContains, maxContains. */
  maxDeclaredItems: number;
  /** minLength, maxLength (characters). */
  maxDeclaredLength: number;
  /** minProperties, maxProperties, and the length of `required`. */
  maxDeclaredProperties: number;
  /** Values in one `enum`. */
  maxEnumValues: number;
  /** Subschemas nested inside one schema (properties → items → properties …). */
  maxSchemaDepth: number;
  steps: number;
  inputs: number;
}

export const DEFAULT_CHAIN_LIMITS: Readonly<ChainLimits> = Object.freeze({
  maxDeclaredItems: 10_000,
  maxDeclaredLength: 1_000_000,
  maxDeclaredProperties: 10_000,
  maxEnumValues: 10_000,
  maxSchemaDepth: 32,
  steps: 20_000,
  inputs: 200,
});

const sizeKeywords: Record<string, keyof ChainLimits> = {
  minItems: 'maxDeclaredItems', maxItems: 'maxDeclaredItems', minContains: 'maxDeclaredItems', maxContains: 'maxDeclaredItems',
  minLength: 'maxDeclaredLength', maxLength: 'maxDeclaredLength',
  minProperties: 'maxDeclaredProperties', maxProperties: 'maxDeclaredProperties',
};

/** Keywords whose value is one subschema, a list of them, or a map of them (JSON Schema 2020-12 and draft 7). */
const oneSchema = ['additionalProperties', 'items', 'contains', 'not', 'if', 'then', 'else', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties', 'additionalItems'];
const schemaLists = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];
const schemaMaps = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

type Path = (string | number)[];

/** Problems in one schema and its subschemas; iterative, so depth is counted, never recursed into. */
function checkSchema(root: unknown, rootPath: Path, limits: ChainLimits, format: (p: Path) => string): ChainProblem[] {
  const problems: ChainProblem[] = [];
  const stack: { schema: unknown; path: Path; depth: number }[] = [{ schema: root, path: rootPath, depth: 0 }];
  for (let item = stack.pop(); item !== undefined && problems.length < 50; item = stack.pop()) {
    const { schema, path, depth } = item;
    if (!isObject(schema)) continue;
    if (depth > limits.maxSchemaDepth) {
      problems.push({ path: format(path), message: `the schema nests deeper than ${limits.maxSchemaDepth} levels of subschemas` });
      continue;
    }
    for (const [keyword, limitName] of Object.entries(sizeKeywords)) {
      if (!Object.hasOwn(schema, keyword)) continue;
      const value = schema[keyword];
      const limit = limits[limitName];
      if (typeof value === 'number' && (!Number.isFinite(value) || value > limit)) {
        problems.push({ path: format([...path, keyword]), message: `declares ${keyword}: ${value}, over the limit of ${limit}` });
      }
    }
    if (Object.hasOwn(schema, 'enum') && Array.isArray(schema.enum) && schema.enum.length > limits.maxEnumValues) {
      problems.push({ path: format([...path, 'enum']), message: `lists ${schema.enum.length} enum values, over the limit of ${limits.maxEnumValues}` });
    }
    if (Object.hasOwn(schema, 'required') && Array.isArray(schema.required) && schema.required.length > limits.maxDeclaredProperties) {
      problems.push({ path: format([...path, 'required']), message: `requires ${schema.required.length} properties, over the limit of ${limits.maxDeclaredProperties}` });
    }
    const next = (value: unknown, at: Path) => stack.push({ schema: value, path: at, depth: depth + 1 });
    for (const keyword of oneSchema) if (Object.hasOwn(schema, keyword) && isObject(schema[keyword])) next(schema[keyword], [...path, keyword]);
    for (const keyword of schemaLists) {
      const list = Object.hasOwn(schema, keyword) ? schema[keyword] : undefined;
      if (Array.isArray(list)) list.forEach((s, i) => next(s, [...path, keyword, i]));
    }
    for (const keyword of schemaMaps) {
      const map = Object.hasOwn(schema, keyword) ? schema[keyword] : undefined;
      if (isObject(map)) for (const [name, s] of Object.entries(map)) next(s, [...path, keyword, name]);
    }
  }
  return problems;
}

/**
 * The schemas in a step's config: the fields its kind marks as JSON Schemas, and anything
 * under a `schema` or `outputSchema` key deeper in the config (a gate's schema checks).
 */
function configSchemas(config: Record<string, unknown>, schemaKeys: ReadonlySet<string>): { schema: unknown; path: Path }[] {
  const found: { schema: unknown; path: Path }[] = [];
  const stack: { value: unknown; path: Path }[] = [{ value: config, path: [] }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { value, path } = item;
    if (Array.isArray(value)) value.forEach((v, i) => stack.push({ value: v, path: [...path, i] }));
    else if (isObject(value)) {
      for (const [key, v] of Object.entries(value)) {
        if (isObject(v) && (key === 'schema' || key === 'outputSchema' || (path.length === 0 && schemaKeys.has(key)))) found.push({ schema: v, path: [...path, key] });
        else stack.push({ value: v, path: [...path, key] });
      }
    }
  }
  return found;
}

/**
 * Every declared size in a chain over its limit, with the JSON path of the keyword.
 *
 * @example
 * checkDeclaredSizes(chain, stepRegistry, DEFAULT_CHAIN_LIMITS, formatPath);
 * // [{ path: '$.inputs[0].schema.minItems', message: 'declares minItems: 100000000, over the limit of 10000' }]
 */
export function checkDeclaredSizes(chain: Chain, registry: StepRegistry, limits: ChainLimits, format: (p: Path) => string): ChainProblem[] {
  const problems: ChainProblem[] = [];
  if (chain.steps.length > limits.steps) problems.push({ path: '$.steps', message: `has ${chain.steps.length} steps, over the limit of ${limits.steps}` });
  if (chain.inputs.length > limits.inputs) problems.push({ path: '$.inputs', message: `has ${chain.inputs.length} inputs, over the limit of ${limits.inputs}` });
  chain.inputs.forEach((input, i) => problems.push(...checkSchema(input.schema, ['inputs', i, 'schema'], limits, format)));
  chain.steps.forEach((step, i) => {
    const def = registry.get(step.kind);
    const schemaKeys = new Set((def?.fields ?? []).flatMap((f) => (f.kind === 'json' && f.schemaHint === 'jsonSchema' ? [f.key] : [])));
    for (const { schema, path } of configSchemas(step.config, schemaKeys)) problems.push(...checkSchema(schema, ['steps', i, 'config', ...path], limits, format));
  });
  return problems;
}
