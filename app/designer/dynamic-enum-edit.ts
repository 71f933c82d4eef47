/**
 * Marking a string field of an output schema as a dynamic enum: at run time its `enum` becomes
 * the section ids of a bound document (src/steps/dynamic-enum.ts), so an invented id cannot be
 * produced under strict structured output. Pure edits on the schema value.
 */
export interface DynamicEnumSpec {
  binding: string;
  from: 'sectionIds';
}

export interface StringField {
  /** Keys from the schema root to the string node, e.g. ['properties', 'quotes', 'items', 'properties', 'section_id']. */
  path: string[];
  /** How a person reads it: `quotes[].section_id`. */
  label: string;
  dynamic: DynamicEnumSpec | null;
}

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => !!v && typeof v === 'object' && !Array.isArray(v);
const isString = (n: Node) => n.type === 'string' || (Array.isArray(n.type) && n.type.includes('string'));

export function stringFields(schema: unknown, path: string[] = [], label = '', depth = 0): StringField[] {
  if (!isNode(schema) || depth > 12) return [];
  const out: StringField[] = [];
  if (isString(schema) && label) {
    const spec = schema['x-dynamicEnum'];
    out.push({ path, label, dynamic: isNode(spec) && typeof spec.binding === 'string' ? { binding: spec.binding, from: 'sectionIds' } : null });
  }
  if (isNode(schema.properties)) {
    for (const [key, child] of Object.entries(schema.properties)) out.push(...stringFields(child, [...path, 'properties', key], label ? `${label}.${key}` : key, depth + 1));
  }
  if (isNode(schema.items)) out.push(...stringFields(schema.items, [...path, 'items'], `${label}[]`, depth + 1));
  return out;
}

function update(node: unknown, path: readonly string[], fn: (n: Node) => Node): unknown {
  return isNode(node) ? updateNode(node, path, fn) : node;
}

function updateNode(node: Node, path: readonly string[], fn: (n: Node) => Node): Node {
  const [key, ...rest] = path;
  if (key === undefined) return fn(node);
  if (key === '__proto__' || key === 'constructor' || key === 'prototype') return node;
  return { ...node, [key]: update(node[key], rest, fn) };
}

/** Sets (or with null, removes) the dynamic enum on the string node at `path`; a static enum there is replaced. */
export function setDynamicEnum(schema: Record<string, unknown>, path: readonly string[], spec: DynamicEnumSpec | null): Record<string, unknown> {
  return updateNode(schema, path, (n) => {
    const { enum: _static, 'x-dynamicEnum': _dynamic, ...rest } = n;
    return spec ? { ...rest, 'x-dynamicEnum': { binding: spec.binding, from: spec.from } } : spec === null && _dynamic === undefined ? n : rest;
  });
}
