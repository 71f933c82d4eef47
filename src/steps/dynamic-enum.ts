import { hashString } from '../chain/hash.ts';
import { selectAll } from './select-path.ts';
import { splitSections } from './sections.ts';
import { isRecord } from '../files/json-value.ts';

/**
 * Dynamic enums: a schema node carrying `"x-dynamicEnum": { "binding": "document", "from": "sectionIds" }`
 * gets an `enum` generated per run from that binding — the document's own section ids, or the
 * strings of an array — so an invented id cannot be decoded under strict structured output,
 * rather than merely detected afterwards. Resolved schemas are cached by the
 * bound value's content, so a document's schema is built (and compiled) once.
 */
export interface DynamicEnumSpec {
  binding: string;
  from: 'sectionIds' | 'values';
  /** For `values`: a path into the binding, with `[*]` for every array item (`sections[*].section_id`). */
  path?: string;
}

const idCache = new Map<string, string[]>();

export function sectionIdsOf(text: string): string[] {
  const key = hashString(text);
  let ids = idCache.get(key);
  if (!ids) {
    ids = splitSections(text).map((s) => s.id);
    if (idCache.size >= 32) idCache.delete(idCache.keys().next().value as string);
    idCache.set(key, ids);
  }
  return ids;
}

function asDynamicEnumSpec(value: unknown): DynamicEnumSpec | null {
  if (!isRecord(value) || typeof value.binding !== 'string' || (value.from !== 'sectionIds' && value.from !== 'values')) return null;
  return { binding: value.binding, from: value.from, ...(typeof value.path === 'string' ? { path: value.path } : {}) };
}

function enumValues(spec: DynamicEnumSpec, values: Record<string, unknown>): string[] | string {
  // Own keys only: a binding named "constructor" that is not bound is unbound, not Object.
  const bound = Object.hasOwn(values, spec.binding) ? values[spec.binding] : undefined;
  if (bound === undefined) return `the dynamic enum reads "${spec.binding}", which is not bound`;
  if (spec.from === 'sectionIds') {
    if (typeof bound !== 'string') return `the dynamic enum needs "${spec.binding}" to be text`;
    return sectionIdsOf(bound);
  }
  const selected = spec.path ? selectAll(bound, spec.path) : [bound];
  const list = selected.length === 1 && Array.isArray(selected[0]) ? selected[0] : spec.path?.includes('[*]') ? selected : null;
  if (!Array.isArray(list)) return `the dynamic enum needs "${spec.binding}${spec.path ? `.${spec.path}` : ''}" to be an array`;
  return [...new Set(list.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))))];
}

const dynamicBySchema = new WeakMap<object, boolean>();
export function hasDynamicEnums(schema: unknown): boolean {
  // Asked on every call of every step with the same (never mutated) schema object: answer once.
  if (schema === null || typeof schema !== 'object') return false;
  let has = dynamicBySchema.get(schema);
  if (has === undefined) dynamicBySchema.set(schema, (has = JSON.stringify(schema).includes('"x-dynamicEnum"')));
  return has;
}

/** Returns the schema with every dynamic enum filled in, or the problem that stopped it. */
export function resolveDynamicEnums(schema: Record<string, unknown>, values: Record<string, unknown>): { schema: Record<string, unknown> } | { error: string } {
  let error: string | null = null;
  const walk = (node: unknown): unknown => (Array.isArray(node) ? node.map(walk) : isRecord(node) ? walkObject(node) : node);
  const walkObject = (node: Record<string, unknown>): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) if (k !== 'x-dynamicEnum') out[k] = walk(v);
    const raw = node['x-dynamicEnum'];
    const spec = asDynamicEnumSpec(raw);
    if (raw && !spec) error ??= 'the dynamic enum must be {"binding": <name>, "from": "sectionIds" | "values", "path"?: <path>}';
    if (spec) {
      const list = enumValues(spec, values);
      if (typeof list === 'string') error ??= list;
      else if (list.length === 0) error ??= `the dynamic enum from "${spec.binding}" is empty`;
      else out.enum = list;
    }
    return out;
  };
  const resolved = walkObject(schema);
  return error ? { error } : { schema: resolved };
}
