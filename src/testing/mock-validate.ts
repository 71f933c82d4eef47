/** Small helpers the protocol modules use to word validation errors the way real endpoints do. */

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** OpenAI's wording for a JSON value's type: "a string", "an integer", "a decimal number"… */
export function openAITypeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'an integer' : 'a decimal number';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'boolean') return 'a boolean';
  return `a ${typeof v}`;
}

export function randomId(prefix: string, length: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let out = prefix;
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(Math.random() * alphabet.length)];
  return out;
}

/** Thrown inside a validator to stop at the first problem, like the real endpoints do. */
export class Invalid extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super('invalid request');
  }
}

/**
 * OpenAI strict-mode rules for a structured-output schema: every object needs
 * `additionalProperties: false` and must list every property in `required`. The error text
 * follows what the real endpoint answers ("In context=('properties', 'x'), …").
 */
export function strictSchemaProblem(schema: unknown, path: string[] = []): string | null {
  if (!isObject(schema)) return null;
  const context = `(${path.map((p) => `'${p}'`).join(', ')}${path.length === 1 ? ',' : ''})`;
  const isObjectSchema = schema.type === 'object' || (Array.isArray(schema.type) && schema.type.includes('object')) || isObject(schema.properties);
  if (isObjectSchema) {
    if (schema.additionalProperties !== false) {
      return `In context=${context}, 'additionalProperties' is required to be supplied and to be false.`;
    }
    const keys = isObject(schema.properties) ? Object.keys(schema.properties) : [];
    const required = Array.isArray(schema.required) ? schema.required : [];
    const missing = keys.filter((k) => !required.includes(k));
    if (missing.length > 0) {
      return `In context=${context}, 'required' is required to be supplied and to be an array including every key in properties. Missing '${missing[0]}'.`;
    }
  }
  const children: [string[], unknown][] = [];
  if (isObject(schema.properties)) for (const [k, v] of Object.entries(schema.properties)) children.push([[...path, 'properties', k], v]);
  if (isObject(schema.items)) children.push([[...path, 'items'], schema.items]);
  for (const key of ['anyOf', 'allOf', 'oneOf'] as const) {
    const list = schema[key];
    if (Array.isArray(list)) list.forEach((v, i) => children.push([[...path, key, String(i)], v]));
  }
  for (const key of ['$defs', 'definitions'] as const) {
    const defs = schema[key];
    if (isObject(defs)) for (const [k, v] of Object.entries(defs)) children.push([[...path, key, k], v]);
  }
  for (const [p, child] of children) {
    const problem = strictSchemaProblem(child, p);
    if (problem) return problem;
  }
  return null;
}
