import { chainEdges } from '../chain/graph.ts';
import { asStepId, type StepId } from '../chain/ids.ts';
import type { Chain, StepDef } from '../chain/schema.ts';
import type { AnyStepDefinition, StepRegistry } from '../steps/registry.ts';

/** What the scheduler needs to know about each step, computed once per run. */
export interface PlannedStep {
  id: StepId;
  step: StepDef;
  def: AnyStepDefinition;
  config: unknown;
  /** Steps whose output this step reads. */
  dataPreds: string[];
  /** Routers with a branch to this step: it runs only if one of them chose it. */
  routePreds: string[];
  /** Runs only in place of a failed step (the target of a fallback edge). */
  standby: boolean;
}

export function planChain(chain: Chain, registry: StepRegistry): Map<string, PlannedStep> {
  const edges = chainEdges(chain, registry);
  const plan = new Map<string, PlannedStep>();
  for (const step of chain.steps) {
    const def = registry.get(step.kind);
    if (!def) throw new Error(`unknown step kind "${step.kind}"`);
    plan.set(step.id, { id: asStepId(step.id), step, def, config: def.config.parse(step.config), dataPreds: [], routePreds: [], standby: false });
  }
  for (const edge of edges) {
    const target = plan.get(edge.target);
    if (!target) continue;
    if (edge.kind === 'data' && !target.dataPreds.includes(edge.source)) target.dataPreds.push(edge.source);
    if (edge.kind === 'route' && !target.routePreds.includes(edge.source)) target.routePreds.push(edge.source);
    if (edge.kind === 'fallback') target.standby = true;
  }
  return plan;
}
