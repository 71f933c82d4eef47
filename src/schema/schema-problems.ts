// Seamscope: checking a JSON Schema before it is used ("compiling" it). Shared by the engine and
// the exported TypeScript runtime (each export writes it into its runtime folder:
// src/export/runtime-sources.ts).
import { ENFORCED_FORMATS, isEnforcedFormat } from './format-names.ts';
import { translatePattern } from './pattern-syntax.ts';

/**
 * A schema from a chain file is checked whole before any model is called: a `pattern` that
 * does not compile, a misspelt `type`, a `$ref` that loops or points nowhere, a keyword this
 * validator does not evaluate. (A lone surrogate in a property name broke ajv's generated code
 * at run time; interpreted, such a name is an ordinary key, so it is accepted — a lone
 * surrogate inside a *pattern* is refused, since engines disagree on what it matches.) Each
 * problem names the keyword's path inside the schema, so the chain's validation can say
 * `$.steps[2].config.outputSchema.properties.code.pattern: …`.
 */
export interface SchemaProblem {
  path: (string | number)[];
  message: string;
  /** `note`: valid, but something the author may think is checked is not (an unenforced format). */
  severity: 'error' | 'note';
}

const TYPES = new Set(['null', 'boolean', 'object', 'array', 'number', 'string', 'integer']);
const SCHEMA_KEYWORDS = ['additionalProperties', 'items', 'contains', 'not', 'if', 'then', 'else', 'propertyNames'] as const;
const SCHEMA_LISTS = ['prefixItems', 'allOf', 'anyOf', 'oneOf'] as const;
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions'] as const;
const COUNTS = ['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties', 'minContains', 'maxContains'] as const;
const NUMBERS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'] as const;
// Keywords whose meaning this validator (and the Python runtime's) does not implement: refused
// rather than ignored, since ignoring one would accept values the author meant to reject.
export const UNSUPPORTED_KEYWORDS: readonly string[] = [
  'dependentSchemas', 'dependencies', 'unevaluatedProperties', 'unevaluatedItems', '$dynamicRef', '$dynamicAnchor',
  '$recursiveRef', '$recursiveAnchor', 'additionalItems', '$anchor',
];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isCount = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 0;
function decodePointer(ref: string): string[] {
  return ref.slice(1).split('/').filter(Boolean).map((p) => {
    let decoded = p;
    try {
      decoded = decodeURIComponent(p);
    } catch {
      /* kept as written: the lookup then fails and is reported */
    }
    return decoded.replace(/~1/g, '/').replace(/~0/g, '~');
  });
}

function lookup(root: unknown, parts: string[]): { found: boolean; value: unknown } {
  let node = root;
  for (const part of parts) {
    if ((!isObject(node) && !Array.isArray(node)) || !Object.prototype.hasOwnProperty.call(node, part)) return { found: false, value: undefined };
    node = Reflect.get(node, part);
  }
  return { found: true, value: node };
}

/** Checks one schema node and its subschemas; records the refs it meets for the loop check. */
function walk(root: unknown, node: unknown, path: (string | number)[], out: SchemaProblem[], refs: Map<string, string>): void {
  const error = (where: (string | number)[], message: string): void => {
    out.push({ path: where, message, severity: 'error' });
  };
  if (typeof node === 'boolean') return;
  if (!isObject(node)) return error(path, 'must be a JSON Schema (an object, or true or false)');
  const at = (k: string | number) => [...path, k];
  for (const keyword of UNSUPPORTED_KEYWORDS) if (Object.hasOwn(node, keyword)) error(at(keyword), `the keyword "${keyword}" is not supported by Seamscope's validator: express it with the supported keywords`);
  if (Object.hasOwn(node, '$id') && path.length > 0) error(at('$id'), 'an $id inside a schema is not supported: refs resolve from the schema\'s root');
  if (Object.hasOwn(node, 'type')) {
    const t = node.type;
    const list = Array.isArray(t) ? t : [t];
    if (list.length === 0) error(at('type'), 'must name at least one type');
    list.forEach((name, i) => {
      if (typeof name !== 'string' || !TYPES.has(name)) error(Array.isArray(t) ? at('type').concat(i) : at('type'), `${JSON.stringify(name)} is not a JSON Schema type (one of ${[...TYPES].join(', ')})`);
    });
    if (new Set(list).size !== list.length) error(at('type'), 'names a type twice');
  }
  if (Object.hasOwn(node, 'enum') && !Array.isArray(node.enum)) error(at('enum'), 'must be an array of the allowed values');
  if (Object.hasOwn(node, 'required')) {
    const r = node.required;
    if (!Array.isArray(r) || r.some((n) => typeof n !== 'string')) error(at('required'), 'must be an array of property names');
  }
  if (Object.hasOwn(node, 'dependentRequired')) {
    const d = node.dependentRequired;
    if (!isObject(d) || Object.values(d).some((v) => !Array.isArray(v) || v.some((n) => typeof n !== 'string'))) error(at('dependentRequired'), 'must map property names to arrays of property names');
  }
  for (const k of COUNTS) if (Object.hasOwn(node, k) && !isCount(node[k])) error(at(k), 'must be a non-negative integer');
  for (const k of NUMBERS) {
    if (Object.hasOwn(node, k) && (typeof node[k] !== 'number' || !Number.isFinite(node[k]))) {
      error(at(k), typeof node[k] === 'boolean' ? 'must be a number (the boolean form is draft-04, which is not supported)' : 'must be a number');
    }
  }
  if (Object.hasOwn(node, 'multipleOf') && !(typeof node.multipleOf === 'number' && Number.isFinite(node.multipleOf) && node.multipleOf > 0)) error(at('multipleOf'), 'must be a number greater than 0');
  if (Object.hasOwn(node, 'uniqueItems') && typeof node.uniqueItems !== 'boolean') error(at('uniqueItems'), 'must be true or false');
  if (Object.hasOwn(node, 'nullable') && typeof node.nullable !== 'boolean') error(at('nullable'), 'must be true or false');
  if (Object.hasOwn(node, 'pattern')) {
    if (typeof node.pattern !== 'string') error(at('pattern'), 'must be a string (a regular expression)');
    else {
      const r = translatePattern(node.pattern);
      if (!r.ok) error(at('pattern'), `the pattern ${JSON.stringify(node.pattern)} ${r.problem}`);
    }
  }
  if (Object.hasOwn(node, 'format')) {
    if (typeof node.format !== 'string') error(at('format'), 'must be a string');
    else if (!isEnforcedFormat(node.format)) {
      out.push({ path: at('format'), severity: 'note', message: `the format "${node.format}" is not enforced: values are not checked against it (enforced: ${ENFORCED_FORMATS.join(', ')}); add a pattern if the shape matters` });
    }
  }
  if (Object.hasOwn(node, '$ref')) {
    const ref = node.$ref;
    if (typeof ref !== 'string') error(at('$ref'), 'must be a string');
    else if (!ref.startsWith('#')) error(at('$ref'), `"${ref}" points outside this schema; only local refs ("#/$defs/…") are supported, and nothing is fetched`);
    else if (ref.length > 1 && !ref.startsWith('#/')) error(at('$ref'), `"${ref}" names an anchor; only JSON-pointer refs ("#/$defs/…") are supported`);
    else if (!lookup(root, decodePointer(ref)).found) error(at('$ref'), `"${ref}" points to nothing in this schema`);
    else refs.set(pointerOf(path), ref);
  }
  for (const k of SCHEMA_KEYWORDS) if (Object.hasOwn(node, k)) walk(root, node[k], at(k), out, refs);
  for (const k of SCHEMA_LISTS) {
    if (!Object.hasOwn(node, k)) continue;
    const list = node[k];
    if (!Array.isArray(list) || list.length === 0) error(at(k), 'must be a non-empty array of schemas');
    else list.forEach((sub, i) => walk(root, sub, [...at(k), i], out, refs));
  }
  for (const k of SCHEMA_MAPS) {
    if (!Object.hasOwn(node, k)) continue;
    const map = node[k];
    if (!isObject(map)) {
      error(at(k), 'must be an object of schemas');
      continue;
    }
    for (const [name, sub] of Object.entries(map)) {
      if (k === 'patternProperties') {
        const r = translatePattern(name);
        if (!r.ok) error([...at(k), name], `the pattern ${JSON.stringify(name)} ${r.problem}`);
      }
      walk(root, sub, [...at(k), name], out, refs);
    }
  }
}

const pointerOf = (path: (string | number)[]) => `#${path.map((p) => `/${String(p).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('')}`;

/**
 * `$ref` chains that come back to where they started without reading any part of the value
 * (`#/$defs/a` → `#/$defs/b` → `#/$defs/a`, or `{"$ref": "#"}` at the root) recurse forever.
 * Refs reached through `properties`, `items` and the like are fine: each step descends into
 * the value, so the value's own depth bounds them.
 */
function refLoops(root: unknown, refs: Map<string, string>): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  // Subschemas applied to the same value as their parent.
  const sameValue = (node: unknown, at: string): string[] => {
    if (!isObject(node)) return [];
    const next: string[] = [];
    if (typeof node.$ref === 'string' && refs.has(at)) next.push(node.$ref === '#' ? '#' : node.$ref);
    for (const k of ['not', 'if', 'then', 'else'] as const) if (Object.hasOwn(node, k)) next.push(`${at}/${k}`);
    for (const k of ['allOf', 'anyOf', 'oneOf'] as const) if (Array.isArray(node[k])) (node[k] as unknown[]).forEach((_, i) => next.push(`${at}/${k}/${i}`));
    return next;
  };
  const reported = new Set<string>();
  for (const start of refs.keys()) {
    // Depth-first from each ref site along same-value edges; a path back to the start is a loop.
    const stack: { at: string; trail: string[] }[] = [{ at: start, trail: [start] }];
    const seen = new Set<string>();
    for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
      const { at, trail } = item;
      const node = lookup(root, decodePointer(at)).value;
      for (const next of sameValue(node, at)) {
        if (next === start) {
          if (!reported.has(start)) {
            reported.add(start);
            const parts = decodePointer(start);
            problems.push({ path: [...parts, '$ref'], severity: 'error', message: `the $ref loops (${[...trail, next].join(' → ')}) without reading any part of the value` });
          }
          continue;
        }
        if (seen.has(next) || trail.length > 256) continue;
        seen.add(next);
        stack.push({ at: next, trail: [...trail, next] });
      }
    }
  }
  return problems;
}

/**
 * Everything wrong with a schema, with each keyword's path inside it (empty when it is sound).
 *
 * @example
 * schemaProblems({ type: 'strin' });
 * // [{ path: ['type'], severity: 'error', message: '"strin" is not a JSON Schema type (…)' }]
 */
export function schemaProblems(schema: unknown): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  const refs = new Map<string, string>();
  walk(schema, schema, [], out, refs);
  if (out.some((p) => p.severity === 'error')) return out;
  return [...out, ...refLoops(schema, refs)];
}
