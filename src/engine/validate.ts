import { createSchemaChecker } from '../schema/index.ts';

/**
 * JSON Schema validation for the engine: the validator of src/schema (no generated code, so it
 * runs under the app's Content-Security-Policy; patterns matched in linear time), with each
 * distinct schema checked, and compiled into closures where it can be, once and reused across
 * attempts, steps and runs; the interpreter words the problems of a value that fails.
 */
export interface SchemaValidator {
  /** Returns the problems as plain sentences with their JSON pointer; empty when valid. */
  validate(schema: Record<string, unknown>, value: unknown): string[];
}

export function createSchemaValidator(): SchemaValidator {
  const check = createSchemaChecker();
  return { validate: (schema, value) => check(schema, value) };
}
