import { chainEdges } from '../chain/graph.ts';
import type { Chain } from '../chain/schema.ts';
import { stepRegistry } from '../steps/index.ts';
import type { StepRegistry } from '../steps/registry.ts';
import type { RunMeta, TraceEvent } from '../trace/events.ts';
import { runChain, type RunOptions } from './run.ts';

/**
 * Rerun from a step: fork a stored run at one step, optionally with an edited intermediate
 * (that step's output) or an edited chain (prompt, schema, model), and rerun only what is
 * downstream. Everything upstream is reused from the parent run, never called again.
 */
export interface ForkPlan {
  /** Steps reused from the parent run. */
  reused: string[];
  /** Steps that will run again. */
  rerun: string[];
  /** The parent's events for reused steps (plus the edited output), for the engine to restore. */
  restore: TraceEvent[];
}

/** The fork step and every step reachable from it (data, route and fallback edges). */
export function downstreamOf(chain: Chain, stepId: string, registry: StepRegistry = stepRegistry): Set<string> {
  const edges = chainEdges(chain, registry);
  const reached = new Set([stepId]);
  const queue = [stepId];
  while (queue.length > 0) {
    const id = queue.shift() as string;
    for (const e of edges) if (e.source === id && !reached.has(e.target)) {
      reached.add(e.target);
      queue.push(e.target);
    }
  }
  return reached;
}

export function planFork(chain: Chain, parentEvents: readonly TraceEvent[], fromStep: string, editedOutput?: { value: unknown }, registry: StepRegistry = stepRegistry): ForkPlan {
  if (!chain.steps.some((s) => s.id === fromStep)) throw new Error(`The chain has no step "${fromStep}"`);
  const downstream = downstreamOf(chain, fromStep, registry);
  const restore: TraceEvent[] = [];
  const reused: string[] = [];
  for (const e of parentEvents) {
    if ((e.type === 'step.finished' || e.type === 'step.route' || e.type === 'step.unit') && !downstream.has(e.stepId)) {
      restore.push(e);
      if (e.type === 'step.finished' && !reused.includes(e.stepId)) reused.push(e.stepId);
    }
  }
  if (editedOutput) {
    // The edited intermediate stands in for the fork step's own output; only what reads it reruns.
    restore.push({ type: 'step.finished', at: 0, stepId: fromStep, status: 'succeeded', output: editedOutput.value, latencyMs: 0 });
    reused.push(fromStep);
  }
  const rerun = chain.steps.map((s) => s.id).filter((id) => downstream.has(id) && !(editedOutput && id === fromStep));
  return { reused, rerun, restore };
}

export interface RerunOptions extends Omit<RunOptions, 'chain' | 'inputs' | 'resume' | 'fork'> {
  parent: RunMeta;
  parentEvents: readonly TraceEvent[];
  fromStep: string;
  /** The edited chain (prompt, schema or model changes); defaults to the chain the parent ran. */
  chain?: Chain;
  /** An edited intermediate: replaces the fork step's output, so the step itself is not rerun. */
  editedOutput?: { value: unknown };
}

/**
 * @example
 * const fork = await rerunFromStep({ parent, parentEvents, fromStep: 'summarise',
 *   editedOutput: { value: { summary: 'Reconsideration: within 180 days…' } }, provider, model, repo });
 */
export async function rerunFromStep(opts: RerunOptions): Promise<RunMeta> {
  const chain = opts.chain ?? (opts.parent.chain as Chain);
  const plan = planFork(chain, opts.parentEvents, opts.fromStep, opts.editedOutput, opts.registry);
  return runChain({
    ...opts, chain, inputs: opts.parent.inputs,
    fork: { events: plan.restore, from: { runId: opts.parent.id, stepId: opts.fromStep, editedOutput: Boolean(opts.editedOutput), reused: plan.reused } },
  });
}
