import { Ajv2020 } from 'ajv/dist/2020.js';

/**
 * Whether a value is a usable JSON Schema: valid against the draft 2020-12 meta-schema and
 * compilable (so `$ref`s resolve). Loaded with the editor, never in the first bundle.
 */
const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });

export function checkJsonSchema(value: unknown): string[] {
  if (value === null) return [];
  if (typeof value !== 'object' || Array.isArray(value)) return ['an output schema is a JSON object (or null for free text)'];
  const { $schema: _ignored, ...schema } = value as Record<string, unknown>;
  if (!ajv.validateSchema(schema)) {
    // One message per place: the first is the specific one ("must be one of …"); the rest
    // are the anyOf/oneOf echoes of the same mistake.
    const byPath = new Map<string, string>();
    for (const e of ajv.errors ?? []) {
      const where = e.instancePath || '(root)';
      if (!byPath.has(where)) byPath.set(where, `${where}: ${e.message ?? 'is invalid'}${e.keyword === 'enum' ? ` (${JSON.stringify(e.params.allowedValues)})` : ''}`);
    }
    return [...byPath.values()];
  }
  try {
    ajv.compile(schema);
    ajv.removeSchema(schema);
    return [];
  } catch (error) {
    return [(error as Error).message];
  }
}
