import { isRecord } from '../../../src/files/index.ts';
import { schemaPointer, schemaProblems } from '../../../src/schema/index.ts';

/**
 * Whether a value is a usable JSON Schema, by the same check chain validation runs at import
 * (src/schema: keyword shapes, patterns that compile for linear-time matching, `$ref`s that
 * resolve and do not loop). It interprets rather than compiles, so it needs no Function constructor
 * under the app's Content-Security-Policy. Notes (an unenforced format) are lint's to show.
 */
export function checkJsonSchema(value: unknown): string[] {
  if (value === null) return [];
  if (!isRecord(value)) return ['an output schema is a JSON object (or null for free text)'];
  const { $schema: _ignored, ...schema } = value;
  return schemaProblems(schema).filter((p) => p.severity === 'error').map((p) => `${schemaPointer(p.path)}: ${p.message}`);
}
