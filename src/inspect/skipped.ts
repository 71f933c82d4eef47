import { chainEdges } from '../chain/graph.ts';
import type { Chain } from '../chain/schema.ts';
import { stepRegistry, type StepRegistry } from '../steps/index.ts';
import type { TraceEvent } from '../trace/events.ts';

export interface SkippedStep {
  stepId: string;
  /** Why it did not run, in words: the route taken instead, the step it reads that did not run, or a fallback not needed. */
  reason: string;
}

/**
 * The steps a run skipped, each with why, from the chain it ran and its trace alone: a branch a
 * router did not take (with the label it read and where it went), a step whose input did not run,
 * or a fallback its step never needed. A skip is never silent: `seamscope inspect` prints these.
 *
 * @example
 * skippedSteps(meta.chain, events); // [{ stepId: 'tech_reply', reason: 'route chose billing_reply on "billing"' }]
 */
export function skippedSteps(chain: Chain | undefined, events: readonly TraceEvent[], registry: StepRegistry = stepRegistry): SkippedStep[] {
  const skipped: string[] = [];
  const status = new Map<string, string>();
  const routes = new Map<string, { label: string; chosen: string[] }>();
  for (const e of events) {
    if (e.type === 'step.finished') {
      status.set(e.stepId, e.status);
      if (e.status === 'skipped') skipped.push(e.stepId);
    }
    if (e.type === 'step.route') routes.set(e.stepId, { label: e.label, chosen: e.chosen });
  }
  if (skipped.length === 0) return [];
  const edges = chain?.steps ? chainEdges(chain, registry) : [];
  // Indexed once, so a trace from anyone with thousands of edges costs each edge once.
  const into = new Map<string, typeof edges>();
  for (const edge of edges) {
    const list = into.get(edge.target);
    if (list) list.push(edge);
    else into.set(edge.target, [edge]);
  }
  return skipped.map((stepId) => {
    const incoming = into.get(stepId) ?? [];
    for (const edge of incoming.filter((e) => e.kind === 'route')) {
      const route = routes.get(edge.source);
      if (route && !route.chosen.includes(stepId)) return { stepId, reason: `${edge.source} read ${route.label} and chose ${route.chosen.join(', ') || 'nothing'}` };
      if (!route && status.get(edge.source) !== 'succeeded') return { stepId, reason: `its router ${edge.source} did not run (${status.get(edge.source) ?? 'not reached'})` };
    }
    const notRun = incoming.filter((e) => e.kind === 'data' && status.get(e.source) !== 'succeeded').map((e) => `${e.source} (${status.get(e.source) ?? 'not reached'})`);
    if (notRun.length) return { stepId, reason: `a step it reads did not run: ${[...new Set(notRun)].join(', ')}` };
    if (incoming.some((e) => e.kind === 'fallback')) return { stepId, reason: 'a fallback, not needed: the step it stands in for succeeded' };
    return { stepId, reason: 'skipped (the trace does not say why)' };
  });
}
