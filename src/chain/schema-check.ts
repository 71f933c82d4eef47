// The check half only: importing the barrel would put the matcher (re2js) on the app's first paint.
import { schemaProblems } from '../schema/schema-problems.ts';
import type { StepRegistry } from '../steps/index.ts';
import type { Chain } from './schema.ts';

/**
 * Every JSON Schema a chain holds (each input's, and each schema a step's config carries, as its
 * kind declares them), checked whole at validate and import: a broken one is an error with the
 * path of its bad keyword (`$.steps[1].config.outputSchema.properties.code.pattern`), found
 * before any model call rather than after one was paid for. Notes are schemas that are sound
 * but promise a check that does not happen (an unenforced `format`).
 */
export interface ChainSchemaFinding {
  /** Path inside the chain file, for formatPath. */
  path: (string | number)[];
  message: string;
  severity: 'error' | 'note';
  stepId?: string;
}

export function chainSchemaFindings(chain: Chain, registry: StepRegistry): ChainSchemaFinding[] {
  const found: ChainSchemaFinding[] = [];
  chain.inputs.forEach((input, i) => {
    for (const p of schemaProblems(input.schema)) found.push({ path: ['inputs', i, 'schema', ...p.path], message: p.message, severity: p.severity });
  });
  chain.steps.forEach((step, i) => {
    const def = registry.get(step.kind);
    const parsed = def?.config.safeParse(step.config);
    if (!def?.schemas || !parsed?.success) return;
    for (const { path, schema } of def.schemas(parsed.data)) {
      for (const p of schemaProblems(schema)) {
        found.push({ path: ['steps', i, 'config', ...path, ...p.path], message: p.message, severity: p.severity, stepId: step.id });
      }
    }
  });
  return found;
}
