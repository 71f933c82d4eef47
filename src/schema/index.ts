// Seamscope: JSON Schema checking and validation without generated code. Shared by the engine and
// the exported TypeScript runtime (each export writes the files beside this index into its runtime
// folder: src/export/runtime-sources.ts).
/**
 * @example
 * import { createSchemaChecker } from '../src/schema/index.ts';
 * const check = createSchemaChecker();
 * const problems = check({ type: 'object', required: ['answer'] }, value); // [] when it conforms
 */
export { compilePattern, MAX_REPEAT, type LinearPattern, type PatternResult } from './pattern.ts';
export { ENFORCED_FORMATS, isEnforcedFormat, matchesFormat } from './formats.ts';
export { schemaProblems, type SchemaProblem } from './schema-problems.ts';
export { interpret, formatSchemaError, deepEqual, type SchemaError } from './interpret.ts';
export { createSchemaChecker, schemaPointer, type SchemaChecker } from './checker.ts';
export { compileValidity, type Validity } from './compile.ts';
