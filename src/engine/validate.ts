import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { stableStringify } from '../chain/hash.ts';

/**
 * JSON Schema validation with compiled validators cached by schema content, so a schema is
 * compiled once per distinct content and reused across attempts, steps and runs.
 */
export interface SchemaValidator {
  /** Returns the problems as plain sentences with their JSON pointer; empty when valid. */
  validate(schema: Record<string, unknown>, value: unknown): string[];
}

export function formatAjvErrors(errors: readonly ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => {
    const where = e.instancePath || '(root)';
    const extra = e.keyword === 'additionalProperties' ? ` ("${String((e.params as { additionalProperty?: string }).additionalProperty)}")`
      : e.keyword === 'enum' ? ` (one of ${JSON.stringify((e.params as { allowedValues?: unknown }).allowedValues)})` : '';
    return `${where}: ${e.message ?? 'is invalid'}${extra}`;
  });
}

export function createSchemaValidator(): SchemaValidator {
  // strict: false because real-world schemas carry keywords ajv's strict mode rejects
  // (e.g. OpenAI's `strict`-style hints, `$comment`-like annotations); validation itself stays exact.
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
  const cache = new Map<string, ValidateFunction | string>();
  // Most calls pass the same schema object again (a step's parsed config): skip re-keying it.
  const byObject = new WeakMap<Record<string, unknown>, ValidateFunction | string>();
  const compile = (schema: Record<string, unknown>) => {
    // Boolean schemas (`true`/`false`) are valid JSON Schema but cannot key a WeakMap.
    if (schema === null || typeof schema !== 'object') return compileByContent(schema);
    const known = byObject.get(schema);
    if (known !== undefined) return known;
    const entry = compileByContent(schema);
    byObject.set(schema, entry);
    return entry;
  };
  const compileByContent = (schema: Record<string, unknown>) => {
    const key = stableStringify(schema);
    let entry = cache.get(key);
    if (entry === undefined) {
      try {
        // Schemas from files may carry a draft-07 `$schema`; the 2020 validator reads the same keywords we use.
        if (schema === null || typeof schema !== 'object') entry = ajv.compile(schema as never);
        else {
          const { $schema: _ignored, ...rest } = schema;
          entry = ajv.compile(rest);
        }
      } catch (error) {
        entry = `the schema itself is not a valid JSON Schema: ${(error as Error).message}`;
      }
      cache.set(key, entry);
    }
    return entry;
  };
  return {
    validate(schema, value) {
      const fn = compile(schema);
      if (typeof fn === 'string') return [fn];
      return fn(value) ? [] : formatAjvErrors(fn.errors);
    },
  };
}
