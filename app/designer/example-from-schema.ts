/**
 * An example instance of a JSON Schema, shown under a step's output schema so the designer sees
 * what the contract asks for. Schema-true for the keywords output contracts use (type, enum,
 * const, properties, required, items, min/maxItems, uniqueItems, string lengths and formats,
 * number ranges and multipleOf, anyOf/oneOf/allOf, nullable types); `pattern` is not solved.
 * Deterministic: the same schema always gives the same example.
 */
export interface ExampleOptions {
  /** A value for a node with `x-dynamicEnum` (e.g. the first section id of an example document). */
  dynamicEnum?: (spec: { binding?: unknown; from?: unknown }) => string | undefined;
  maxDepth?: number;
}

type Schema = Record<string, unknown>;

const isSchema = (v: unknown): v is Schema => !!v && typeof v === 'object' && !Array.isArray(v);

const formats: Record<string, string> = {
  'date-time': '2025-01-31T09:30:00Z', date: '2025-01-31', time: '09:30:00Z', email: 'someone@example.com',
  uri: 'https://example.com/', url: 'https://example.com/', uuid: '3f2b8c1e-7a4d-4e2b-9c1f-0d5e6a7b8c9d', hostname: 'example.com', ipv4: '192.0.2.1',
};

function exampleString(s: Schema, name: string, variant: number): string {
  const format = typeof s.format === 'string' ? formats[s.format] : undefined;
  let text = format ?? (name ? `${name.replace(/_/g, ' ')} example` : 'example text');
  if (variant > 0) text = format ? text : `${text} ${variant + 1}`;
  const min = typeof s.minLength === 'number' ? s.minLength : 0;
  const max = typeof s.maxLength === 'number' ? s.maxLength : Infinity;
  if (text.length > max) text = text.slice(0, max);
  while (text.length < min) text += 'x';
  return text;
}

function exampleNumber(s: Schema, integer: boolean, variant: number): number {
  const step = typeof s.multipleOf === 'number' && s.multipleOf > 0 ? s.multipleOf : integer ? 1 : 0;
  let lo = typeof s.minimum === 'number' ? s.minimum : -Infinity;
  let hi = typeof s.maximum === 'number' ? s.maximum : Infinity;
  const nudge = integer ? 1 : 1e-6;
  if (typeof s.exclusiveMinimum === 'number') lo = Math.max(lo, s.exclusiveMinimum + nudge);
  if (typeof s.exclusiveMaximum === 'number') hi = Math.min(hi, s.exclusiveMaximum - nudge);
  let value = Number.isFinite(lo) ? lo : Number.isFinite(hi) ? Math.min(hi, integer ? 1 : 0.5) : integer ? 1 : 0.5;
  if (Number.isFinite(lo) && Number.isFinite(hi) && !integer && lo < hi && variant === 0) value = (lo + hi) / 2;
  value += variant * (step || 1);
  if (step) value = Math.ceil(value / step - 1e-9) * step;
  if (integer) value = Math.ceil(value);
  if (value > hi) value = integer ? Math.floor(hi) : hi;
  return Number(value.toFixed(6));
}

function pickType(s: Schema): string | undefined {
  if (typeof s.type === 'string') return s.type;
  if (Array.isArray(s.type)) return (s.type.find((t) => t !== 'null') ?? s.type[0]) as string | undefined;
  if (isSchema(s.properties)) return 'object';
  if (s.items !== undefined) return 'array';
  return undefined;
}

function build(s: unknown, name: string, depth: number, variant: number, o: ExampleOptions): unknown {
  if (s === true || s === undefined) return exampleString({}, name, variant);
  if (!isSchema(s)) return null;
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[Math.min(variant, s.enum.length - 1)];
  const dynamic = s['x-dynamicEnum'];
  if (isSchema(dynamic)) {
    const value = o.dynamicEnum?.(dynamic);
    if (value !== undefined) return value;
  }
  const alternatives = (Array.isArray(s.anyOf) && s.anyOf) || (Array.isArray(s.oneOf) && s.oneOf);
  if (alternatives && alternatives.length) return build({ ...s, anyOf: undefined, oneOf: undefined, ...(alternatives[0] as Schema) }, name, depth, variant, o);
  if (Array.isArray(s.allOf) && s.allOf.length) return build(Object.assign({}, ...s.allOf.filter(isSchema), { ...s, allOf: undefined }), name, depth, variant, o);
  if (depth > (o.maxDepth ?? 8)) return null;
  switch (pickType(s)) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const props = isSchema(s.properties) ? s.properties : {};
      for (const [key, child] of Object.entries(props)) out[key] = build(child, key, depth + 1, variant, o);
      return out;
    }
    case 'array': {
      const min = typeof s.minItems === 'number' ? s.minItems : 0;
      const max = typeof s.maxItems === 'number' ? s.maxItems : Infinity;
      const count = Math.min(max, Math.max(min, Math.min(2, max)));
      const itemName = name.replace(/s$/, '');
      return Array.from({ length: count }, (_, i) => build(s.items, itemName, depth + 1, s.uniqueItems ? i : variant + i, o));
    }
    case 'string':
      return exampleString(s, name, variant);
    case 'integer':
      return exampleNumber(s, true, variant);
    case 'number':
      return exampleNumber(s, false, variant);
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return exampleString(s, name, variant);
  }
}

export function exampleFromSchema(schema: unknown, options: ExampleOptions = {}): unknown {
  return build(schema, '', 0, 0, options);
}
