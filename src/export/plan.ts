import { chainEdges, topologicalOrder } from '../chain/graph.ts';
import { parseRef } from '../chain/refs.ts';
import type { Chain, StepDef } from '../chain/schema.ts';
import { planChain } from '../engine/plan.ts';
import type { AnyStepDefinition, StepRegistry } from '../steps/registry.ts';

/**
 * What the emitters need to know about each step, decided once from the chain: the order the
 * program runs steps in (the engine's dependency order), which steps may be skipped when
 * reached (behind a router, or reading a step that may be skipped), which values derive from
 * untrusted inputs, and each step's chain of fallbacks.
 */
export interface ExportStep {
  step: StepDef;
  def: AnyStepDefinition;
  /** The config as the step kind parses it, defaults filled in. */
  config: Record<string, unknown>;
  bindings: Record<string, string>;
  /** Steps this one reads. */
  after: string[];
  /** Routers with a branch to this step. */
  chosenBy: string[];
  /** Runs only in place of a failed step (a fallback target). */
  standby: boolean;
  /** May be skipped when the program reaches it, so its call is guarded. */
  conditional: boolean;
  /** Binding names whose values derive from an untrusted input. */
  untrusted: string[];
  onFail: string;
  fallback: string | null;
}

export interface ExportPlan {
  chain: Chain;
  steps: Map<string, ExportStep>;
  /** Steps in the order the program runs them (fallback targets run at their failed step). */
  order: string[];
}

/** The engine's fallback depth limit: a step's fallback chain stops after this many hops. */
export const MAX_FALLBACK_DEPTH = 8;

export function planExport(chain: Chain, registry: StepRegistry): ExportPlan {
  const engine = planChain(chain, registry);
  const { order, cycle } = topologicalOrder(chain.steps.map((s) => s.id), chainEdges(chain, registry));
  if (cycle.length > 0) throw new Error(`the steps ${cycle.join(', ')} form a cycle`);
  const untrustedInputs = new Set(chain.inputs.filter((i) => i.trust === 'untrusted').map((i) => i.name));
  const tainted = new Set<string>();
  const steps = new Map<string, ExportStep>();
  for (const id of order) {
    const planned = engine.get(id);
    if (!planned) continue;
    const config = planned.config as Record<string, unknown>;
    const bindings = planned.def.bindings(config) as Record<string, string>;
    const untrusted = Object.entries(bindings).filter(([, ref]) => {
      const { root, name } = parseRef(ref);
      return (root === 'inputs' && untrustedInputs.has(name)) || (root === 'steps' && tainted.has(name));
    }).map(([name]) => name);
    if (untrusted.length > 0) tainted.add(id);
    const onFail = typeof config.onFail === 'string' ? config.onFail : 'abort';
    const fallback = onFail.startsWith('fallback:') ? onFail.slice('fallback:'.length) : null;
    const mayBeSkipped = (p: string) => {
      const pred = steps.get(p);
      return pred === undefined || pred.conditional || pred.standby;
    };
    steps.set(id, {
      step: planned.step, def: planned.def, config, bindings, after: planned.dataPreds, chosenBy: planned.routePreds, standby: planned.standby,
      conditional: planned.routePreds.length > 0 || planned.dataPreds.some(mayBeSkipped), untrusted, onFail, fallback,
    });
  }
  return { chain, steps, order: order.filter((id) => !steps.get(id)?.standby) };
}

/** The fallbacks a failed step runs, in turn, up to the engine's depth limit. */
export function fallbackChain(plan: ExportPlan, id: string): ExportStep[] {
  const chain: ExportStep[] = [];
  let current = plan.steps.get(id);
  while (current?.fallback && chain.length < MAX_FALLBACK_DEPTH) {
    const next = plan.steps.get(current.fallback);
    if (!next) break;
    chain.push(next);
    current = next;
  }
  return chain;
}
