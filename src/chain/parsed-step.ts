import type { StepDefinition, StepRegistry } from '../steps/index.ts';
import { asStepId, type StepId } from './ids.ts';
import type { StepDef } from './schema.ts';

/**
 * A step whose config its kind has parsed: the definition and the typed config travel together,
 * so a consumer asks the definition about the config instead of reading fields by name. The
 * registry-derived union of these (one member per built-in kind) is `TypedStep` in src/steps.
 */
export interface ParsedStep<K extends string = string, C = unknown> {
  id: StepId;
  kind: K;
  config: C;
  def: StepDefinition<K, C>;
  /** The step as stored (name, position, the raw config). */
  step: StepDef;
}

/**
 * The step with its config parsed by its kind, or null when the kind is unknown or the config
 * does not parse (a chain saved mid-edit; restoreChain reports why). Not cached across calls:
 * tests and the CLI edit configs in place, so an analysis parses each step once per call (the
 * engine once per run, in its plan) and passes the ParsedStep on.
 *
 * @example
 * const parsed = parseStep(step, stepRegistry);
 * if (parsed?.def.produces.by === 'model') console.log(parsed.def.produces.contract(parsed.config).retries);
 */
export function parseStep(step: StepDef, registry: StepRegistry): ParsedStep | null {
  const def = registry.get(step.kind);
  const result = def?.config.safeParse(step.config);
  return def && result?.success ? { id: asStepId(step.id), kind: step.kind, config: result.data, def, step } : null;
}
