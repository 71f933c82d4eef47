// Seamscope: JSON Schema (2020-12) validation by interpretation. Shared by the engine, the app and
// the exported TypeScript runtime (each export writes it into its runtime folder:
// src/export/runtime-sources.ts).
import { matchesFormat } from './formats.ts';
import { compilePattern, type LinearPattern } from './pattern.ts';

/**
 * Why an interpreter and not ajv: ajv generates code with the Function constructor, which the app's
 * Content-Security-Policy forbids, and its `pattern` runs on the backtracking RegExp engine.
 * This walks the schema instead, matches patterns in linear time, and words every problem,
 * orders the problems and points at them exactly as ajv 8 does (`allErrors`), so retry
 * feedback is unchanged and the Python runtime (validate.py, the same algorithm) sends the
 * model the same words. Schemas are checked first by `schemaProblems` (schema-problems.ts);
 * this module assumes a schema that passed that check.
 */
export interface SchemaError {
  /** JSON pointer of the value, '' for the root. */
  path: string;
  keyword: string;
  message: string;
  /** additionalProperties: the extra property; enum: the allowed values. */
  property?: string;
  allowed?: unknown[];
  propertyName?: string;
}

type Schema = Record<string, unknown> | boolean;

/** Keywords this validator evaluates; every other keyword is an annotation. */
export const EVALUATED = new Set([
  'type', 'nullable', 'enum', 'const', '$ref', '$defs', 'definitions', 'not', 'anyOf', 'oneOf', 'allOf', 'if', 'then', 'else',
  'properties', 'required', 'additionalProperties', 'patternProperties', 'propertyNames', 'minProperties', 'maxProperties',
  'dependentRequired', 'items', 'prefixItems', 'minItems', 'maxItems', 'uniqueItems', 'contains', 'minContains', 'maxContains',
  'minLength', 'maxLength', 'pattern', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'format',
]);

const GROUPS: Record<string, readonly string[]> = {
  number: ['maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum', 'multipleOf'],
  string: ['maxLength', 'minLength', 'pattern', 'format'],
  array: ['maxItems', 'minItems', 'uniqueItems', 'prefixItems', 'items', 'contains'],
  object: ['maxProperties', 'minProperties', 'required', 'propertyNames', 'additionalProperties', 'properties', 'patternProperties', 'dependentRequired'],
};
/** The number limits: keyword, the relation a value must have to the limit, and when it fails. */
export const LIMITS: readonly [string, string, (d: number, s: number) => boolean][] = [
  ['maximum', '<=', (d, s) => d > s], ['minimum', '>=', (d, s) => d < s],
  ['exclusiveMaximum', '<', (d, s) => d >= s], ['exclusiveMinimum', '>', (d, s) => d <= s],
];

// The helpers below are exported for compile.ts, whose closures must decide exactly as this does.
export const has = (o: object, k: string) => Object.hasOwn(o, k);
export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
export const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isNull = (v: unknown) => v === null;
const isBoolean = (v: unknown) => typeof v === 'boolean';
const isString = (v: unknown) => typeof v === 'string';
const isInteger = (v: unknown) => isNumber(v) && Number.isInteger(v);

/** The test a JSON Schema type name stands for (undefined: not a type name). */
export function typeTest(t: string): ((v: unknown) => boolean) | undefined {
  switch (t) {
    case 'null': return isNull;
    case 'boolean': return isBoolean;
    case 'string': return isString;
    case 'number': return isNumber;
    case 'integer': return isInteger;
    case 'array': return Array.isArray;
    case 'object': return isObject;
    default: return undefined;
  }
}

function typeOk(t: string, v: unknown): boolean {
  const test = typeTest(t);
  return test !== undefined && test(v);
}

/** fast-deep-equal, what ajv's enum, const and uniqueItems use. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => has(b, k) && deepEqual(a[k], b[k]));
  }
  return a !== a && b !== b;
}

/** Canonical JSON text (keys sorted): equal for exactly the values deepEqual calls equal. */
export function stableKey(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableKey).join(',')}]`;
  if (isObject(value)) return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${stableKey(value[k])}`).join(',')}}`;
  return JSON.stringify(value) ?? 'undefined';
}

/** The pointer one step down; most keys hold neither `~` nor `/` and are appended as they are (no two replacing scans per property). */
const pointer = (path: string, key: string | number) => {
  if (typeof key === 'number') return `${path}/${key}`;
  return key.includes('~') || key.includes('/') ? `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}` : `${path}/${key}`;
};

/**
 * Whether a string breaks maxLength / minLength, in ajv's ucs2length (code points, a lone
 * surrogate counting one). A string's code points number between half its UTF-16 length
 * (rounded up) and that length: a limit outside that range is decided without counting them.
 */
export const tooLong = (s: string, max: number) => s.length > max && (Math.ceil(s.length / 2) > max || length(s) > max);
export const tooShort = (s: string, min: number) => Math.ceil(s.length / 2) < min && (s.length < min || length(s) < min);

/** ajv tests `res !== parseInt(res)`, and parseInt reads 1e+21 as 1: such quotients fail. */
export function notMultipleOf(data: number, divisor: number): boolean {
  const q = data / divisor;
  return divisor === 0 || q !== parseInt(String(q), 10);
}

/** ajv's ucs2length: code points, a lone surrogate counting one. */
function length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++, n++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
  }
  return n;
}

function pattern(source: string): LinearPattern {
  const r = compilePattern(source);
  // schemaProblems refuses such a schema before it is used; reaching here is a caller's bug.
  if (!r.ok) throw new Error(`pattern "${source}" ${r.problem}`);
  return r.pattern;
}

/** Keywords a node evaluates (not `$defs`/`definitions`, which only hold subschemas). */
const evaluatedCount = (schema: Record<string, unknown>) => Object.keys(schema).filter((k) => EVALUATED.has(k) && k !== '$defs' && k !== 'definitions').length;

function alwaysValid(schema: unknown): boolean {
  return schema === true || (isObject(schema) && nodeInfo(schema).evaluated === 0);
}

/**
 * What validate reads of a schema node that depends on the node alone, worked out on its first
 * use and kept while the node lives: a step's schema is checked on every attempt of every run,
 * and re-deriving its types, keyword groups and property lists each time was most of the cost.
 * Schema nodes are treated as immutable (the checker already caches its verdict by object).
 */
interface NodeInfo {
  evaluated: number;
  types: string[];
  only: string;
  singleGroup: boolean;
  typeMessage: string;
  groups: ('number' | 'string' | 'array' | 'object')[];
  /** Whether any keyword for any type is there ($ref, const, enum, not, the applicators). */
  anyType: boolean;
  /** properties/patternProperties, made on the first object value (a bad pattern throws there, as before). */
  object?: { props: string[]; known: Set<string>; patterns: LinearPattern[] };
}
const infos = new WeakMap<object, NodeInfo>();
const ANY_TYPE = ['$ref', 'const', 'enum', 'not', 'anyOf', 'oneOf', 'allOf', 'if'];

function nodeInfo(schema: Record<string, unknown>): NodeInfo {
  let info = infos.get(schema);
  if (info) return info;
  const rawType = schema.type;
  const types = rawType === undefined ? [] : Array.isArray(rawType) ? [...(rawType as string[])] : [rawType as string];
  if (types.length > 0 && schema.nullable === true && !types.includes('null')) types.push('null');
  const only = types.length === 1 ? (types[0] as string) : '';
  info = {
    evaluated: evaluatedCount(schema),
    types, only,
    singleGroup: only !== '' && has(GROUPS, only) && (GROUPS[only] as string[]).some((k) => has(schema, k)),
    typeMessage: `must be ${typeText(rawType)}`,
    groups: (['number', 'string', 'array', 'object'] as const).filter((g) => (GROUPS[g] as string[]).some((k) => has(schema, k))),
    anyType: ANY_TYPE.some((k) => has(schema, k)),
  };
  infos.set(schema, info);
  return info;
}

function objectInfo(schema: Record<string, unknown>): NonNullable<NodeInfo['object']> {
  const info = nodeInfo(schema);
  if (info.object) return info.object;
  const props = knownProperties(isObject(schema.properties) ? schema.properties : {});
  const patternProps = isObject(schema.patternProperties) ? schema.patternProperties : {};
  info.object = { props, known: new Set(props), patterns: Object.keys(patternProps).map(pattern) };
  return info.object;
}

/** The names of `properties` a value's properties are checked against: ajv leaves out `__proto__`. */
export const knownProperties = (properties: Record<string, unknown>) => Object.keys(properties).filter((p) => p !== '__proto__');

function resolve(root: Schema, ref: string): Schema {
  let node: unknown = root;
  for (const raw of ref.slice(1).split('/').filter(Boolean)) {
    const part = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObject(node) && !Array.isArray(node)) throw new Error(`$ref "${ref}" does not resolve`);
    if (!has(node, part)) throw new Error(`$ref "${ref}" does not resolve`);
    node = Reflect.get(node, part);
  }
  return node as Schema;
}

const typeText = (raw: unknown) => (Array.isArray(raw) ? raw.join(',') : String(raw));

/** The pair of equal items uniqueItems reports (ajv's), or null when the items are unique. */
export function duplicate(data: unknown[], items: unknown): [number, number] | null {
  const raw = isObject(items) ? items.type : undefined;
  const itemTypes = raw === undefined ? [] : Array.isArray(raw) ? (raw as string[]) : [raw as string];
  if (itemTypes.length > 0 && !itemTypes.some((t) => t === 'object' || t === 'array')) {
    // ajv's fast path for scalar item types: a map keyed by type-tagged value.
    const seen = new Map<string, number>();
    for (let i = data.length - 1; i >= 0; i--) {
      const item = data[i];
      if (!itemTypes.some((t) => typeOk(t, item))) continue;
      const key = `${typeof item === 'string' && itemTypes.length > 1 ? 's' : ''}:${typeof item === 'string' ? item : JSON.stringify(item)}`;
      const j = seen.get(key);
      if (j !== undefined) return [j, i];
      seen.set(key, i);
    }
    return null;
  }
  // ajv compares every pair (quadratic); keying each item by its canonical text finds the same
  // pair — the highest i with an equal item before it, and the nearest such j — in linear time.
  const lastSeen = new Map<string, number>();
  let found: [number, number] | null = null;
  data.forEach((item, i) => {
    const key = stableKey(item);
    const j = lastSeen.get(key);
    if (j !== undefined) found = [j, i];
    lastSeen.set(key, i);
  });
  return found;
}

/**
 * Checks one schema node may make per value node, beyond a fixed allowance. A sound schema
 * applies each subschema to each value a few times; only anyOf/oneOf/not branches that recurse
 * through `$ref` re-check a subtree per branch, which multiplies per level (exponential in the
 * value's depth, in ajv too). The budget turns that into a defined answer in bounded time.
 */
export const CHECKS_PER_VALUE = 200;
export const BASE_CHECKS = 200_000;

class BudgetSpent extends Error {}
let remaining = 0;
/**
 * The value being validated and whether its share of the budget was added. The value's nodes
 * are counted only when the fixed allowance runs out, which a sound schema's check never does:
 * the limit is the same, without a walk over every value on every call.
 */
let budgetData: unknown;
let extended = false;

function budgetLeft(): boolean {
  if (extended) return false;
  extended = true;
  remaining += CHECKS_PER_VALUE * valueNodes(budgetData);
  return remaining >= 0;
}

function valueNodes(root: unknown): number {
  let n = 0;
  const stack = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    n++;
    if (Array.isArray(v)) for (const item of v) stack.push(item);
    else if (isObject(v)) for (const k of Object.keys(v)) stack.push(v[k]);
  }
  return n;
}

/** Validates `data` against a checked schema; problems in ajv's order with ajv's words. */
export function interpret(root: Schema, data: unknown): SchemaError[] {
  const errors: SchemaError[] = [];
  remaining = BASE_CHECKS;
  budgetData = data;
  extended = false;
  try {
    validate(root, root, data, '', errors);
  } catch (error) {
    if (!(error instanceof BudgetSpent)) throw error;
    const budget = BASE_CHECKS + CHECKS_PER_VALUE * valueNodes(data);
    return [{ path: '', keyword: 'budget', message: `validation stopped after ${budget} checks: the schema's anyOf/oneOf/not branches re-check the same values over and over; simplify it` }];
  } finally {
    budgetData = undefined;
  }
  return errors;
}

function check(root: Schema, schema: unknown, data: unknown, path: string): boolean {
  const errors: SchemaError[] = [];
  validate(root, schema, data, path, errors);
  return errors.length === 0;
}

function validate(root: Schema, schema: unknown, data: unknown, path: string, errors: SchemaError[]): void {
  if (--remaining < 0 && !budgetLeft()) throw new BudgetSpent();
  if (schema === true) return;
  if (schema === false) {
    errors.push({ path, keyword: 'false schema', message: 'boolean schema is false' });
    return;
  }
  if (!isObject(schema)) return;
  const info = nodeInfo(schema);
  if (info.evaluated === 1 && has(schema, '$ref')) {
    validate(root, resolve(root, schema.$ref as string), data, path, errors);
    return;
  }
  const { types, only, singleGroup } = info;
  if (types.length > 0 && !singleGroup && !anyTypeOk(types, data)) errors.push({ path, keyword: 'type', message: info.typeMessage });
  if (info.anyType) anyTypeKeywords(root, schema, data, path, errors);
  const groups = info.groups;
  for (let g = 0; g < groups.length; g++) {
    const group = groups[g] as NodeInfo['groups'][number];
    if (typeOk(group, data)) {
      if (group === 'number') numberKeywords(schema, data as number, path, errors);
      else if (group === 'string') stringKeywords(schema, data as string, path, errors);
      else if (group === 'array') arrayKeywords(root, schema, data as unknown[], path, errors);
      else objectKeywords(root, schema, data as Record<string, unknown>, path, errors);
    } else if (singleGroup && only === group) errors.push({ path, keyword: 'type', message: info.typeMessage });
  }
}

/** Whether the value has one of the types (a loop: this runs for every value node checked). */
function anyTypeOk(types: readonly string[], data: unknown): boolean {
  for (let i = 0; i < types.length; i++) if (typeOk(types[i] as string, data)) return true;
  return false;
}

/** Keywords for any type, in ajv's order. */
function anyTypeKeywords(root: Schema, schema: Record<string, unknown>, data: unknown, path: string, errors: SchemaError[]): void {
  if (has(schema, '$ref')) validate(root, resolve(root, schema.$ref as string), data, path, errors);
  if (has(schema, 'const') && !deepEqual(data, schema.const)) errors.push({ path, keyword: 'const', message: 'must be equal to constant' });
  if (Array.isArray(schema.enum) && !schema.enum.some((v) => deepEqual(data, v))) {
    errors.push({ path, keyword: 'enum', message: 'must be equal to one of the allowed values', allowed: schema.enum });
  }
  if (has(schema, 'not') && check(root, schema.not, data, path)) errors.push({ path, keyword: 'not', message: 'must NOT be valid' });
  if (Array.isArray(schema.anyOf) && !schema.anyOf.some(alwaysValid)) {
    const start = errors.length;
    let matched = false;
    for (const sub of schema.anyOf) {
      const before = errors.length;
      validate(root, sub, data, path, errors);
      if (errors.length === before) {
        errors.length = start;
        matched = true;
        break;
      }
    }
    if (!matched) errors.push({ path, keyword: 'anyOf', message: 'must match a schema in anyOf' });
  }
  if (Array.isArray(schema.oneOf)) {
    const start = errors.length;
    let passing = 0;
    for (const sub of schema.oneOf) {
      const before = errors.length;
      validate(root, sub, data, path, errors);
      if (errors.length === before) passing++;
    }
    if (passing === 1) errors.length = start;
    else errors.push({ path, keyword: 'oneOf', message: 'must match exactly one schema in oneOf' });
  }
  if (Array.isArray(schema.allOf)) for (const sub of schema.allOf) validate(root, sub, data, path, errors);
  if (has(schema, 'if') && (has(schema, 'then') || has(schema, 'else'))) {
    const clause = check(root, schema.if, data, path) ? 'then' : 'else';
    if (has(schema, clause)) {
      const before = errors.length;
      validate(root, schema[clause], data, path, errors);
      if (errors.length > before) errors.push({ path, keyword: 'if', message: `must match "${clause}" schema` });
    }
  }
}

function numberKeywords(schema: Record<string, unknown>, data: number, path: string, errors: SchemaError[]): void {
  for (let i = 0; i < LIMITS.length; i++) {
    const [keyword, op, fails] = LIMITS[i] as (typeof LIMITS)[number];
    const limit = schema[keyword];
    if (isNumber(limit) && fails(data, limit)) errors.push({ path, keyword, message: `must be ${op} ${String(limit)}` });
  }
  const divisor = schema.multipleOf;
  if (isNumber(divisor)) {
    if (notMultipleOf(data, divisor)) errors.push({ path, keyword: 'multipleOf', message: `must be multiple of ${String(divisor)}` });
  }
}

function stringKeywords(schema: Record<string, unknown>, data: string, path: string, errors: SchemaError[]): void {
  const max = schema.maxLength;
  if (isNumber(max) && tooLong(data, max)) errors.push({ path, keyword: 'maxLength', message: `must NOT have more than ${String(max)} characters` });
  const min = schema.minLength;
  if (isNumber(min) && tooShort(data, min)) errors.push({ path, keyword: 'minLength', message: `must NOT have fewer than ${String(min)} characters` });
  if (typeof schema.pattern === 'string' && !pattern(schema.pattern).test(data)) {
    errors.push({ path, keyword: 'pattern', message: `must match pattern "${schema.pattern}"` });
  }
  if (typeof schema.format === 'string' && !matchesFormat(schema.format, data)) {
    errors.push({ path, keyword: 'format', message: `must match format "${schema.format}"` });
  }
}

function arrayKeywords(root: Schema, schema: Record<string, unknown>, data: unknown[], path: string, errors: SchemaError[]): void {
  const max = schema.maxItems;
  if (isNumber(max) && data.length > max) errors.push({ path, keyword: 'maxItems', message: `must NOT have more than ${String(max)} items` });
  const min = schema.minItems;
  if (isNumber(min) && data.length < min) errors.push({ path, keyword: 'minItems', message: `must NOT have fewer than ${String(min)} items` });
  if (schema.uniqueItems === true && data.length > 1) {
    const dup = duplicate(data, schema.items);
    if (dup) errors.push({ path, keyword: 'uniqueItems', message: `must NOT have duplicate items (items ## ${dup[0]} and ${dup[1]} are identical)` });
  }
  const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
  for (let i = 0; i < Math.min(prefix.length, data.length); i++) validate(root, prefix[i], data[i], pointer(path, i), errors);
  const items = schema.items;
  if (items === false && data.length > prefix.length) errors.push({ path, keyword: 'items', message: `must NOT have more than ${prefix.length} items` });
  else if (items !== undefined && !alwaysValid(items)) for (let i = prefix.length; i < data.length; i++) validate(root, items, data[i], pointer(path, i), errors);
  if (has(schema, 'contains')) {
    const minimum = isNumber(schema.minContains) ? schema.minContains : 1;
    const maximum = isNumber(schema.maxContains) ? schema.maxContains : undefined;
    const start = errors.length;
    let count = 0;
    for (let i = 0; i < data.length; i++) {
      const before = errors.length;
      validate(root, schema.contains, data[i], pointer(path, i), errors);
      if (errors.length === before) count++;
      if (maximum === undefined && minimum === 1 && count >= 1) break;
    }
    if (count >= minimum && (maximum === undefined || count <= maximum)) errors.length = start;
    else {
      const bound = `at least ${String(minimum)}${maximum !== undefined ? ` and no more than ${String(maximum)}` : ''}`;
      errors.push({ path, keyword: 'contains', message: `must contain ${bound} valid item(s)` });
    }
  }
}

/** Stand-ins for an absent keyword's object and its names: nothing allocated per object value checked. */
const NO_KEYWORDS: Record<string, unknown> = Object.freeze({});
const NO_NAMES: readonly string[] = Object.freeze([]);

function objectKeywords(root: Schema, schema: Record<string, unknown>, data: Record<string, unknown>, path: string, errors: SchemaError[]): void {
  const keys = Object.keys(data);
  const max = schema.maxProperties;
  if (isNumber(max) && keys.length > max) errors.push({ path, keyword: 'maxProperties', message: `must NOT have more than ${String(max)} properties` });
  const min = schema.minProperties;
  if (isNumber(min) && keys.length < min) errors.push({ path, keyword: 'minProperties', message: `must NOT have fewer than ${String(min)} properties` });
  if (Array.isArray(schema.required)) {
    for (const name of schema.required as string[]) {
      if (!has(data, name)) errors.push({ path, keyword: 'required', message: `must have required property '${name}'` });
    }
  }
  if (has(schema, 'propertyNames') && !alwaysValid(schema.propertyNames)) {
    for (const key of keys) {
      const before = errors.length;
      validate(root, schema.propertyNames, key, path, errors);
      if (errors.length > before) {
        for (const e of errors.slice(before)) e.propertyName ??= key;
        errors.push({ path, keyword: 'propertyNames', message: 'property name must be valid' });
      }
    }
  }
  const properties = isObject(schema.properties) ? schema.properties : NO_KEYWORDS;
  const { props, known, patterns } = objectInfo(schema);
  const patternProps = isObject(schema.patternProperties) ? schema.patternProperties : NO_KEYWORDS;
  const additional = schema.additionalProperties;
  if (additional !== undefined && !alwaysValid(additional)) {
    for (const key of keys) {
      if (known.has(key) || patterns.some((p) => p.test(key))) continue;
      if (additional === false) errors.push({ path, keyword: 'additionalProperties', message: 'must NOT have additional properties', property: key });
      else validate(root, additional, data[key], pointer(path, key), errors);
    }
  }
  for (const name of props) {
    const sub = properties[name];
    if (has(data, name) && !alwaysValid(sub)) validate(root, sub, data[name], pointer(path, name), errors);
  }
  for (const source of patternProps === NO_KEYWORDS ? NO_NAMES : Object.keys(patternProps)) {
    const sub = patternProps[source];
    if (alwaysValid(sub)) continue;
    const p = pattern(source);
    for (const key of keys) if (p.test(key)) validate(root, sub, data[key], pointer(path, key), errors);
  }
  const dependent = isObject(schema.dependentRequired) ? schema.dependentRequired : NO_KEYWORDS;
  for (const name of dependent === NO_KEYWORDS ? NO_NAMES : Object.keys(dependent)) {
    const needed = dependent[name] as string[];
    if (!has(data, name)) continue;
    for (const n of needed) {
      if (has(data, n)) continue;
      errors.push({ path, keyword: 'dependentRequired', message: `must have propert${needed.length > 1 ? 'ies' : 'y'} ${needed.join(', ')} when property ${name} is present` });
    }
  }
}

/** One problem as the retry feedback words it: `<pointer or (root)>: <message>`. */
export function formatSchemaError(e: SchemaError): string {
  const where = e.path || '(root)';
  const extra = e.keyword === 'additionalProperties' ? ` ("${String(e.property)}")` : e.keyword === 'enum' ? ` (one of ${JSON.stringify(e.allowed)})` : '';
  return `${where}: ${e.message}${extra}`;
}
