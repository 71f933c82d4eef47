import type { StepRegistry } from '../steps/index.ts';
import { refStep } from './refs.ts';
import type { Chain, StepDef } from './schema.ts';

/**
 * Edges are derived, never stored: a data edge for each binding that reads another step,
 * and a control edge for each router branch or fallback.
 */
export interface ChainEdge {
  id: string;
  source: string;
  target: string;
  kind: 'data' | 'route' | 'fallback';
  /** The binding name (data) or the branch label (branch). */
  label: string;
}

/** The step's parsed config, or its raw config when the kind is unknown or invalid. */
function safeConfig(registry: StepRegistry, step: StepDef): unknown {
  const def = registry.get(step.kind);
  if (!def) return null;
  const parsed = def.config.safeParse(step.config);
  return parsed.success ? parsed.data : null;
}

export function chainEdges(chain: Chain, registry: StepRegistry): ChainEdge[] {
  const ids = new Set(chain.steps.map((s) => s.id));
  const edges: ChainEdge[] = [];
  for (const step of chain.steps) {
    const def = registry.get(step.kind);
    const config = safeConfig(registry, step);
    if (!def || config === null) continue;
    for (const [name, ref] of Object.entries(def.bindings(config))) {
      const source = refStep(ref);
      if (source && ids.has(source)) edges.push({ id: `data:${source}->${step.id}:${name}`, source, target: step.id, kind: 'data', label: name });
    }
    for (const branch of def.branches(config)) {
      if (ids.has(branch.to)) edges.push({ id: `${branch.kind}:${step.id}->${branch.to}:${branch.label}`, source: step.id, target: branch.to, kind: branch.kind, label: branch.label });
    }
  }
  return edges;
}

/** Kahn's algorithm. Returns the order, or the steps left on a cycle. */
export function topologicalOrder(stepIds: readonly string[], edges: readonly ChainEdge[]): { order: string[]; cycle: string[] } {
  const indegree = new Map(stepIds.map((id) => [id, 0]));
  const out = new Map<string, string[]>(stepIds.map((id) => [id, []]));
  for (const e of edges) {
    if (!indegree.has(e.source) || !indegree.has(e.target)) continue;
    indegree.set(e.target, (indegree.get(e.target) ?? 0) + 1);
    out.get(e.source)?.push(e.target);
  }
  const queue = stepIds.filter((id) => indegree.get(id) === 0);
  const order: string[] = [];
  while (queue.length > 0) {
    const id = queue.shift() as string;
    order.push(id);
    for (const next of out.get(id) ?? []) {
      const d = (indegree.get(next) ?? 0) - 1;
      indegree.set(next, d);
      if (d === 0) queue.push(next);
    }
  }
  const placed = new Set(order);
  return { order, cycle: stepIds.filter((id) => !placed.has(id)) };
}
