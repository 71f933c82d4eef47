// Seamscope: a schema turned once into closures that only say valid or invalid. Shared by the
// engine and the exported TypeScript runtime (each export writes it into its runtime folder:
// src/export/runtime-sources.ts).
import { isEnforcedFormat, matchesFormat } from './formats.ts';
import { deepEqual, duplicate, EVALUATED, has, isNumber, isObject, knownProperties, LIMITS, notMultipleOf, tooLong, tooShort, typeTest } from './interpret.ts';
import { compilePattern } from './pattern.ts';
import { UNSUPPORTED_KEYWORDS } from './schema-problems.ts';

/**
 * Why: the interpreter walks the schema on every call (a cached lookup per node, a loop over the
 * keywords, a presence test per keyword), and most calls — every model answer that conforms —
 * only need the verdict. Here a schema is walked once and each node becomes a closure made for
 * exactly the keywords it has (`{type: 'integer', minimum: 1}` tests those two things and
 * nothing else). No code is generated (the app's Content-Security-Policy forbids `new
 * Function`); each test is the interpreter's own helper, so the verdict is the interpreter's
 * (compile.test.ts compares them), and the checker asks the interpreter for the words only
 * when this says invalid.
 *
 * Only a subset compiles: the keywords that check a value by its own parts. Anything that
 * applies several schemas to one value ($ref, the combinators, contains) or matches property
 * names (patternProperties, propertyNames) gives null, and the interpreter decides as before.
 * In the subset each value node is checked by at most one schema node, so the interpreter's
 * check budget (CHECKS_PER_VALUE) is never reached and cannot make the two disagree.
 */
export type Validity = (value: unknown) => boolean;
type Part<T> = (value: T) => boolean;

/** Evaluated keywords this compiles (the rest of EVALUATED gives null); `$defs` only serve `$ref`. */
const SUBSET = new Set([
  'type', 'nullable', 'enum', 'const', '$defs', 'definitions',
  'properties', 'required', 'additionalProperties', 'minProperties', 'maxProperties',
  'items', 'prefixItems', 'minItems', 'maxItems', 'uniqueItems',
  'minLength', 'maxLength', 'pattern', 'format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf',
]);
const REFUSED = new Set(UNSUPPORTED_KEYWORDS);
/** Deeper schemas are left to the interpreter (a schema made in code may even be cyclic). */
const MAX_DEPTH = 64;

const ALWAYS: Validity = () => true;
const NEVER: Validity = () => false;

/** Thrown inside the walk for anything outside the subset; compileValidity answers null. */
class Outside extends Error {}
const outside = (): never => {
  throw new Outside();
};

/**
 * The schema's verdict as a function (true: the interpreter finds no problem), or null when the
 * schema is outside the compiled subset. Call it once per schema object and keep the result.
 *
 * @example
 * const valid = compileValidity({ type: 'integer', minimum: 1 });
 * valid?.(3); // true
 * valid?.(0); // false: interpret() says why
 */
export function compileValidity(schema: unknown): Validity | null {
  try {
    return node(schema, 0, new Set());
  } catch (error) {
    if (error instanceof Outside) return null;
    throw error;
  }
}

function node(schema: unknown, depth: number, open: Set<object>): Validity {
  if (schema === true) return ALWAYS;
  if (schema === false) return NEVER;
  if (!isObject(schema) || depth > MAX_DEPTH || open.has(schema)) return outside();
  for (const key of Object.keys(schema)) if ((EVALUATED.has(key) && !SUBSET.has(key)) || REFUSED.has(key)) outside();
  open.add(schema);
  const sub = (s: unknown) => node(s, depth + 1, open);
  const parts: Record<Group, Part<never> | null> = {
    number: numberPart(schema),
    string: stringPart(schema),
    array: arrayPart(schema, sub),
    object: objectPart(schema, sub),
  };
  open.delete(schema);
  const types = typeNames(schema);
  // Keyword groups apply to values of their kind; a value that passes a type's test is of that
  // type's kind, so with types the node is valid when some type's test and its group pass.
  const shape = types
    ? any(types.map((t) => guard(typeTest(t) as Validity, GROUP_OF[t] ? parts[GROUP_OF[t]] : null)))
    : every((Object.keys(parts) as Group[]).flatMap((g) => {
      const part = parts[g];
      const test = typeTest(g) as Validity;
      return part ? [(v: unknown) => !test(v) || part(v as never)] : [];
    }));
  return every([shape, constPart(schema), enumPart(schema)].filter((p): p is Validity => p !== null)) ?? ALWAYS;
}

type Group = 'number' | 'string' | 'array' | 'object';
const GROUP_OF: Record<string, Group | undefined> = { number: 'number', integer: 'number', string: 'string', array: 'array', object: 'object' };

/** The type names (nullable adds null), or null without `type`. */
function typeNames(schema: Record<string, unknown>): string[] | null {
  if (!has(schema, 'type')) return null;
  const raw = schema.type;
  const names = Array.isArray(raw) ? [...(raw as unknown[])] : [raw];
  if (names.length === 0 || !names.every((t) => typeof t === 'string' && typeTest(t) !== undefined)) return outside();
  if (schema.nullable === true && !names.includes('null')) names.push('null');
  return names as string[];
}

function guard(test: Validity, part: Part<never> | null): Validity {
  return part ? (v) => test(v) && part(v as never) : test;
}

/** All of the checks (null: none). */
function every<T>(checks: Part<T>[]): Part<T> | null {
  const [a, b] = checks;
  if (!a) return null;
  if (!b) return a;
  if (checks.length === 2) return (v) => a(v) && b(v);
  return (v) => {
    for (let i = 0; i < checks.length; i++) if (!(checks[i] as Part<T>)(v)) return false;
    return true;
  };
}

/** Any of the checks (there is at least one). */
function any(checks: Validity[]): Validity {
  const [a, b] = checks as [Validity, Validity | undefined];
  if (!b) return a;
  if (checks.length === 2) return (v) => a(v) || b(v);
  return (v) => {
    for (let i = 0; i < checks.length; i++) if ((checks[i] as Validity)(v)) return true;
    return false;
  };
}

/** A keyword's value when present; anything but what `ok` accepts is left to the interpreter. */
function read<T>(schema: Record<string, unknown>, key: string, ok: (v: unknown) => v is T): T | undefined {
  if (!has(schema, key)) return undefined;
  const value = schema[key];
  return ok(value) ? value : outside();
}
const isString = (v: unknown): v is string => typeof v === 'string';
const isBoolean = (v: unknown): v is boolean => typeof v === 'boolean';
const isList = (v: unknown): v is unknown[] => Array.isArray(v);

const primitive = (v: unknown) => typeof v !== 'object' || v === null;

function constPart(schema: Record<string, unknown>): Validity | null {
  if (!has(schema, 'const')) return null;
  const c = schema.const;
  // deepEqual of a primitive is `===`, NaN equalling NaN.
  if (!primitive(c)) return (v) => deepEqual(v, c);
  return c === c ? (v) => v === c : (v) => v !== v;
}

function enumPart(schema: Record<string, unknown>): Validity | null {
  const list = read(schema, 'enum', isList);
  if (!list) return null;
  // For primitives deepEqual is SameValueZero, what a Set's `has` tests (0 and -0 equal, NaN itself).
  if (list.every(primitive)) {
    const allowed = new Set(list);
    return (v) => allowed.has(v);
  }
  return (v) => {
    for (let i = 0; i < list.length; i++) if (deepEqual(v, list[i])) return true;
    return false;
  };
}

function numberPart(schema: Record<string, unknown>): Part<number> | null {
  const checks: Part<number>[] = [];
  for (const [keyword, , fails] of LIMITS) {
    const limit = read(schema, keyword, isNumber);
    if (limit !== undefined) checks.push((d) => !fails(d, limit));
  }
  const divisor = read(schema, 'multipleOf', isNumber);
  if (divisor !== undefined) checks.push((d) => !notMultipleOf(d, divisor));
  return every(checks);
}

function stringPart(schema: Record<string, unknown>): Part<string> | null {
  const checks: Part<string>[] = [];
  const max = read(schema, 'maxLength', isNumber);
  if (max !== undefined) checks.push((s) => !tooLong(s, max));
  const min = read(schema, 'minLength', isNumber);
  if (min !== undefined) checks.push((s) => !tooShort(s, min));
  const source = read(schema, 'pattern', isString);
  if (source !== undefined) {
    const compiled = compilePattern(source);
    // The interpreter throws on such a pattern (schemaProblems refuses it first): left to it.
    const p = compiled.ok ? compiled.pattern : outside();
    checks.push((s) => p.test(s));
  }
  const format = read(schema, 'format', isString);
  if (format !== undefined && isEnforcedFormat(format)) checks.push((s) => matchesFormat(format, s));
  return every(checks);
}

function arrayPart(schema: Record<string, unknown>, sub: (s: unknown) => Validity): Part<unknown[]> | null {
  const checks: Part<unknown[]>[] = [];
  const max = read(schema, 'maxItems', isNumber);
  if (max !== undefined) checks.push((a) => a.length <= max);
  const min = read(schema, 'minItems', isNumber);
  if (min !== undefined) checks.push((a) => a.length >= min);
  if (read(schema, 'uniqueItems', isBoolean) === true) {
    const items = schema.items;
    checks.push((a) => a.length <= 1 || duplicate(a, items) === null);
  }
  const prefix = (read(schema, 'prefixItems', isList) ?? []).map(sub);
  const rawItems = has(schema, 'items') ? schema.items : undefined;
  if (has(schema, 'items') && rawItems === undefined) outside();
  const n = prefix.length;
  if (rawItems === false) checks.push((a) => a.length <= n);
  const items = rawItems === undefined || rawItems === false ? null : sub(rawItems);
  if (n > 0) {
    checks.push((a) => {
      for (let i = 0; i < n && i < a.length; i++) if (!(prefix[i] as Validity)(a[i])) return false;
      return true;
    });
  }
  if (items && items !== ALWAYS) {
    checks.push((a) => {
      for (let i = n; i < a.length; i++) if (!items(a[i])) return false;
      return true;
    });
  }
  return every(checks);
}

function objectPart(schema: Record<string, unknown>, sub: (s: unknown) => Validity): Part<Record<string, unknown>> | null {
  const checks: Part<Record<string, unknown>>[] = [];
  const max = read(schema, 'maxProperties', isNumber);
  if (max !== undefined) checks.push((o) => Object.keys(o).length <= max);
  const min = read(schema, 'minProperties', isNumber);
  if (min !== undefined) checks.push((o) => Object.keys(o).length >= min);
  const required = read(schema, 'required', isList) ?? [];
  if (!required.every(isString)) outside();
  const properties = read(schema, 'properties', isObject) ?? {};
  // One pass over the named properties: each one's presence is looked up once, whether it is
  // required, has a schema, or both.
  const names: string[] = [];
  const subs: Validity[] = [];
  const needed: boolean[] = [];
  const index = new Map<string, number>();
  const known = knownProperties(properties);
  for (const name of known) {
    const check = sub(properties[name]);
    if (check === ALWAYS) continue;
    index.set(name, names.length);
    names.push(name);
    subs.push(check);
    needed.push(false);
  }
  for (const name of required as string[]) {
    const i = index.get(name);
    if (i !== undefined) needed[i] = true;
    else {
      index.set(name, names.length);
      names.push(name);
      subs.push(ALWAYS);
      needed.push(true);
    }
  }
  if (names.length > 0) {
    checks.push((o) => {
      for (let i = 0; i < names.length; i++) {
        const name = names[i] as string;
        if (has(o, name)) {
          const check = subs[i] as Validity;
          if (check !== ALWAYS && !check(o[name])) return false;
        } else if (needed[i]) return false;
      }
      return true;
    });
  }
  if (has(schema, 'additionalProperties')) {
    if (schema.additionalProperties === undefined) outside();
    const additional = sub(schema.additionalProperties);
    const knownSet = new Set(known);
    if (additional === NEVER) {
      checks.push((o) => {
        const keys = Object.keys(o);
        for (let i = 0; i < keys.length; i++) if (!knownSet.has(keys[i] as string)) return false;
        return true;
      });
    } else if (additional !== ALWAYS) {
      checks.push((o) => {
        const keys = Object.keys(o);
        for (let i = 0; i < keys.length; i++) {
          const key = keys[i] as string;
          if (!knownSet.has(key) && !additional(o[key])) return false;
        }
        return true;
      });
    }
  }
  return every(checks);
}
