// Seamscope: one schema validator with a cache. Shared by the engine and the exported TypeScript
// runtime (each export writes it into its runtime folder: src/export/runtime-sources.ts).
import { formatSchemaError, interpret, stableKey } from './interpret.ts';
import { schemaProblems } from './schema-problems.ts';

/** Validates values against schemas, checking each distinct schema once. */
export type SchemaChecker = (schema: Record<string, unknown> | boolean, value: unknown) => string[];

/** `/properties/code/pattern`-style pointer of a path inside a schema, for messages. */
export const schemaPointer = (path: readonly (string | number)[]) => path.map((p) => `/${String(p).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('') || '(root)';

/**
 * Problems come back as `<pointer or (root)>: <message>` sentences (the retry feedback); a
 * schema that is itself broken gives one sentence naming its bad keyword instead.
 *
 * @example
 * const check = createSchemaChecker();
 * check({ type: 'string', pattern: '^[A-Z]+$' }, 'abc'); // ['(root): must match pattern "^[A-Z]+$"']
 */
export function createSchemaChecker(): SchemaChecker {
  const broken = new Map<string, string | null>();
  // Most calls pass the same schema object again (a step's parsed config): skip re-keying it.
  const byObject = new WeakMap<object, string | null>();
  const problemOf = (schema: Record<string, unknown> | boolean): string | null => {
    const known = typeof schema === 'object' ? byObject.get(schema) : undefined;
    if (known !== undefined) return known;
    const key = stableKey(schema);
    let problem = broken.get(key);
    if (problem === undefined) {
      const first = schemaProblems(schema).find((p) => p.severity === 'error');
      problem = first ? `the schema itself is not a valid JSON Schema: ${schemaPointer(first.path)}: ${first.message}` : null;
      if (broken.size >= 1024) broken.delete(broken.keys().next().value as string);
      broken.set(key, problem);
    }
    if (typeof schema === 'object') byObject.set(schema, problem);
    return problem;
  };
  // Schemas from files may carry a draft-07 `$schema`; the keywords read are the same. The copy
  // without it is made once per schema object: a new root on every call would also defeat the
  // interpreter's per-node cache for the root.
  const roots = new WeakMap<object, Record<string, unknown>>();
  const rootOf = (schema: Record<string, unknown>) => {
    if (!Object.prototype.hasOwnProperty.call(schema, '$schema')) return schema;
    let root = roots.get(schema);
    if (!root) roots.set(schema, (root = (({ $schema: _ignored, ...rest }) => rest)(schema)));
    return root;
  };
  return (schema, value) => {
    const problem = problemOf(schema);
    if (problem !== null) return [problem];
    const errors = interpret(typeof schema === 'object' && schema !== null ? rootOf(schema) : schema, value);
    return errors.length === 0 ? [] : errors.map(formatSchemaError);
  };
}
