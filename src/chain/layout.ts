import dagre from '@dagrejs/dagre';
import { stepRegistry } from '../steps/index.ts';
import type { StepRegistry } from '../steps/registry.ts';
import { chainEdges } from './graph.ts';
import type { XY } from './edit.ts';
import type { Chain } from './schema.ts';

/**
 * Auto layout, left to right, with dagre. Returns positions only; the caller decides whether
 * to apply them (as one undoable edit).
 */
export function autoLayout(chain: Chain, opts: { nodeWidth?: number; nodeHeight?: number; rankSep?: number; nodeSep?: number } = {}, registry: StepRegistry = stepRegistry): Map<string, XY> {
  const width = opts.nodeWidth ?? 220;
  const height = opts.nodeHeight ?? 110;
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: 'LR', ranksep: opts.rankSep ?? 70, nodesep: opts.nodeSep ?? 30, marginx: 0, marginy: 0 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const step of chain.steps) g.setNode(step.id, { width, height });
  for (const edge of chainEdges(chain, registry)) g.setEdge(edge.source, edge.target);
  dagre.layout(g);
  const positions = new Map<string, XY>();
  for (const step of chain.steps) {
    const node = g.node(step.id) as { x: number; y: number } | undefined;
    // dagre gives centres; the canvas positions nodes by their top-left corner.
    if (node) positions.set(step.id, { x: Math.round(node.x - width / 2), y: Math.round(node.y - height / 2) });
  }
  return positions;
}

export function applyLayout(chain: Chain, positions: ReadonlyMap<string, XY>): Chain {
  return { ...chain, steps: chain.steps.map((s) => (positions.has(s.id) ? { ...s, position: positions.get(s.id) as XY } : s)) };
}
