/**
 * A small JSON Schema (2020-12 subset) checker for the demo model, used to pick an
 * anyOf/oneOf branch that works and as a last check on its own output. Ajv is not used here
 * because it compiles validators with the Function constructor, which the browser build must not need.
 */

import { compilePattern } from '../schema/index.ts';
import { isRecord } from '../files/json-value.ts';

export type Schema = Record<string, unknown>;

export function asSchema(value: unknown): Schema | null {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Schema) : null;
}

/** Resolves a local `$ref` ("#/$defs/x", "#/definitions/x", "#"); anything else stays as is. */
export function resolveRef(schema: Schema, root: Schema, depth = 0): Schema {
  const ref = schema.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#') || depth > 16) return schema;
  let target: unknown = root;
  for (const part of ref.slice(1).split('/').filter(Boolean)) {
    const key = decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~');
    target = asSchema(target)?.[key];
  }
  const resolved = asSchema(target);
  if (!resolved) return schema;
  const { $ref: _ref, ...rest } = schema;
  return resolveRef({ ...resolved, ...rest }, root, depth + 1);
}

export function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

export function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function typeMatches(type: string, value: unknown): boolean {
  const actual = typeOf(value);
  return type === actual || (type === 'number' && actual === 'integer');
}

function equal(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function conforms(schemaIn: unknown, value: unknown, root: Schema, depth = 0): boolean {
  if (schemaIn === true || schemaIn === undefined) return true;
  if (schemaIn === false) return false;
  const raw = asSchema(schemaIn);
  if (!raw || depth > 64) return true;
  const s = resolveRef(raw, root);
  const check = (sub: unknown, v: unknown) => conforms(sub, v, root, depth + 1);

  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
    if (!types.some((t) => typeMatches(t, value))) return false;
  }
  if (Array.isArray(s.enum) && !s.enum.some((e) => equal(e, value))) return false;
  if ('const' in s && !equal(s.const, value)) return false;
  if (Array.isArray(s.allOf) && !s.allOf.every((b) => check(b, value))) return false;
  if (Array.isArray(s.anyOf) && !s.anyOf.some((b) => check(b, value))) return false;
  if (Array.isArray(s.oneOf) && s.oneOf.filter((b) => check(b, value)).length !== 1) return false;
  if (s.not !== undefined && check(s.not, value)) return false;

  if (typeof value === 'string') {
    const len = codePoints(value);
    if (typeof s.minLength === 'number' && len < s.minLength) return false;
    if (typeof s.maxLength === 'number' && len > s.maxLength) return false;
    if (typeof s.pattern === 'string') {
      // The schema comes from a chain file: matched in linear time (a backtracking RegExp hangs on `^(a+)+$`).
      const compiled = compilePattern(s.pattern);
      if (compiled.ok && !compiled.pattern.test(value)) return false;
    }
  }
  if (typeof value === 'number') {
    if (typeof s.minimum === 'number' && value < s.minimum) return false;
    if (typeof s.maximum === 'number' && value > s.maximum) return false;
    if (typeof s.exclusiveMinimum === 'number' && value <= s.exclusiveMinimum) return false;
    if (typeof s.exclusiveMaximum === 'number' && value >= s.exclusiveMaximum) return false;
    if (typeof s.multipleOf === 'number' && s.multipleOf > 0 && Math.abs(value / s.multipleOf - Math.round(value / s.multipleOf)) > 1e-9) return false;
  }
  if (Array.isArray(value)) {
    if (typeof s.minItems === 'number' && value.length < s.minItems) return false;
    if (typeof s.maxItems === 'number' && value.length > s.maxItems) return false;
    if (s.uniqueItems === true && new Set(value.map((v) => JSON.stringify(v))).size !== value.length) return false;
    const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : [];
    for (let i = 0; i < value.length; i++) {
      if (!check(i < prefix.length ? prefix[i] : s.items, value[i])) return false;
    }
  }
  if (isRecord(value)) {
    const obj = value;
    const props = asSchema(s.properties) ?? {};
    if (Array.isArray(s.required) && !s.required.every((k) => typeof k === 'string' && Object.prototype.hasOwnProperty.call(obj, k))) return false;
    for (const [k, v] of Object.entries(obj)) {
      if (Object.prototype.hasOwnProperty.call(props, k)) {
        if (!check(props[k], v)) return false;
      } else if (s.additionalProperties !== undefined && !check(s.additionalProperties, v)) return false;
    }
  }
  return true;
}

/** Folds `allOf` branches into one schema (properties merged, required joined): enough for generation. */
export function mergeAllOf(schema: Schema, root: Schema): Schema {
  if (!Array.isArray(schema.allOf)) return schema;
  const { allOf, ...merged } = schema;
  for (const branchRaw of allOf as unknown[]) {
    const branch = asSchema(branchRaw);
    if (!branch) continue;
    const b = mergeAllOf(resolveRef(branch, root), root);
    for (const [k, v] of Object.entries(b)) {
      if (k === 'properties') merged.properties = { ...(asSchema(merged.properties) ?? {}), ...(asSchema(v) ?? {}) };
      else if (k === 'required') merged.required = [...new Set([...((merged.required as string[]) ?? []), ...((v as string[]) ?? [])])];
      else if (!Object.hasOwn(merged, k)) merged[k] = v;
    }
  }
  return merged;
}

/** The types a value may take, non-null first; inferred from keywords when `type` is absent. */
export function typesOf(s: Schema): string[] {
  if (Array.isArray(s.type)) {
    const list = s.type as string[];
    return [...list.filter((t) => t !== 'null'), ...list.filter((t) => t === 'null')];
  }
  if (typeof s.type === 'string') return [s.type];
  if (s.properties || s.required || s.additionalProperties !== undefined) return ['object'];
  if (s.items !== undefined || s.prefixItems) return ['array'];
  if (s.minimum !== undefined || s.maximum !== undefined) return ['number'];
  return ['string'];
}
