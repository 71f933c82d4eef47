import { parseStep, type StepDef } from '../../src/chain/index.ts';
import type { ModelContract, StepRegistry } from '../../src/steps/index.ts';
import { canvasRegistry } from './canvas-registry.ts';

/**
 * A step's model contract (schema, retries, budget, truncation) when its definition says it
 * calls a model; from its kind's defaults while its config does not parse (mid-edit), so the
 * editors for it do not vanish. Null for steps that do not call a model.
 */
export function modelContractOf(step: StepDef, registry: StepRegistry = canvasRegistry): ModelContract | null {
  const parsed = parseStep(step, registry);
  const def = parsed?.def ?? registry.get(step.kind);
  if (def?.produces.by !== 'model') return null;
  return def.produces.contract(parsed ? parsed.config : def.defaults());
}
