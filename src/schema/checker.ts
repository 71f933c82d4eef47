// Seamscope: one schema validator with a cache. Shared by the engine and the exported TypeScript
// runtime (each export writes it into its runtime folder: src/export/runtime-sources.ts).
import { compileValidity, type Validity } from './compile.ts';
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
  const problemOf = (schema: Record<string, unknown> | boolean): string | null => {
    const key = stableKey(schema);
    let problem = broken.get(key);
    if (problem === undefined) {
      const first = schemaProblems(schema).find((p) => p.severity === 'error');
      problem = first ? `the schema itself is not a valid JSON Schema: ${schemaPointer(first.path)}: ${first.message}` : null;
      if (broken.size >= 1024) broken.delete(broken.keys().next().value as string);
      broken.set(key, problem);
    }
    return problem;
  };
  // Most calls pass the same schema object again (a step's parsed config): what the checker
  // works out from it is kept by object, one lookup per call.
  const byObject = new WeakMap<object, Prepared>();
  const prepare = (schema: Record<string, unknown>): Prepared => {
    const problem = problemOf(schema);
    if (problem !== null) return { problem, root: schema, valid: null };
    // Schemas from files may carry a draft-07 `$schema`; the keywords read are the same. The
    // copy without it is made once per schema object: a new root on every call would also
    // defeat the interpreter's per-node cache for the root.
    const root = Object.prototype.hasOwnProperty.call(schema, '$schema') ? (({ $schema: _ignored, ...rest }) => rest)(schema) : schema;
    return { problem, root, valid: compileValidity(root) };
  };
  return (schema, value) => {
    let prepared: Prepared;
    if (typeof schema === 'object' && schema !== null) {
      const known = byObject.get(schema);
      if (known) prepared = known;
      else byObject.set(schema, (prepared = prepare(schema)));
    } else {
      const problem = problemOf(schema);
      prepared = { problem, root: schema, valid: problem === null ? compileValidity(schema) : null };
    }
    if (prepared.problem !== null) return [prepared.problem];
    // A conforming value (most model answers) is answered by the compiled closures; the
    // interpreter words the problems of the rest, exactly as before.
    if (prepared.valid !== null && prepared.valid(value)) return [];
    const errors = interpret(prepared.root, value);
    return errors.length === 0 ? [] : errors.map(formatSchemaError);
  };
}

/** What the checker keeps per schema object: its problem if broken, the root it interprets, its compiled verdict (null: not compiled). */
interface Prepared {
  problem: string | null;
  root: Record<string, unknown> | boolean;
  valid: Validity | null;
}
