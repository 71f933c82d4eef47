import dagre from '@dagrejs/dagre';
import type { StepRegistry } from '../steps/index.ts';
import { chainEdges } from './graph.ts';
import type { XY } from './edit.ts';
import { parseRef } from './refs.ts';
import type { Chain } from './schema.ts';

export interface Size {
  width: number;
  height: number;
}

export interface LayoutOptions {
  /** Size of a card whose measured size is not given. */
  nodeWidth?: number;
  nodeHeight?: number;
  /** Measured card sizes by node id (`input:<name>` for inputs): taller cards get their own room. */
  sizes?: ReadonlyMap<string, Size>;
  /** Gap between ranks (columns) and between cards in a rank. */
  rankSep?: number;
  nodeSep?: number;
}

export interface ChainLayout {
  steps: Map<string, XY>;
  inputs: Map<string, XY>;
}

const INPUT_PREFIX = 'input:';
const INPUT_SIZE: Size = { width: 180, height: 48 };
// Roughly the canvas's 11 px edge label font: dagre keeps this much room for each label between
// ranks, so a label sits in a gap rather than on a card.
const labelSize = (label: string): Size => ({ width: Math.min(220, 14 + label.length * 6.5), height: 18 });

function inputName(ref: string): string | null {
  try {
    const parsed = parseRef(ref);
    return parsed.root === 'inputs' ? parsed.name : null;
  } catch {
    return null;
  }
}

/**
 * Auto layout, left to right, with dagre: inputs in the first column, each card sized as
 * measured, room kept for edge labels between columns. Steps nothing connects yet (a chain just
 * sketched, before its edges) go in one row in the order they were placed, not a column that the
 * edges drawn next would loop through. Returns positions only; the caller applies them (one undo step).
 */
export function layoutChain(chain: Chain, opts: LayoutOptions = {}, registry: StepRegistry): ChainLayout {
  const fallback: Size = { width: opts.nodeWidth ?? 220, height: opts.nodeHeight ?? 110 };
  const sizeOf = (id: string): Size => opts.sizes?.get(id) ?? (id.startsWith(INPUT_PREFIX) ? INPUT_SIZE : fallback);
  const rankSep = opts.rankSep ?? 110;
  const nodeSep = opts.nodeSep ?? 48;

  const edges: { source: string; target: string; label: string }[] = chainEdges(chain, registry).map((e) => ({ source: e.source, target: e.target, label: e.label }));
  const known = new Set(chain.inputs.map((i) => i.name));
  for (const step of chain.steps) {
    const def = registry.get(step.kind);
    const parsed = def?.config.safeParse(step.config);
    if (!def || !parsed?.success) continue;
    for (const [binding, ref] of Object.entries(def.bindings(parsed.data))) {
      const name = inputName(ref);
      if (name !== null && known.has(name)) edges.push({ source: INPUT_PREFIX + name, target: step.id, label: binding });
    }
  }
  const connected = new Set(edges.flatMap((e) => [e.source, e.target]));

  const g = new dagre.graphlib.Graph({ multigraph: true });
  g.setGraph({ rankdir: 'LR', ranksep: rankSep, nodesep: nodeSep, edgesep: 16, marginx: 0, marginy: 0 });
  // dagre writes x and y into the label object it is given: one object per node.
  for (const input of chain.inputs) if (connected.has(INPUT_PREFIX + input.name)) g.setNode(INPUT_PREFIX + input.name, { ...sizeOf(INPUT_PREFIX + input.name) });
  for (const step of chain.steps) if (connected.has(step.id)) g.setNode(step.id, { ...sizeOf(step.id) });
  edges.forEach((e, i) => g.setEdge(e.source, e.target, { ...labelSize(e.label), labelpos: 'c' }, `e${i}`));
  dagre.layout(g);

  const out: ChainLayout = { steps: new Map(), inputs: new Map() };
  const place = (id: string, at: XY) => {
    if (id.startsWith(INPUT_PREFIX)) out.inputs.set(id.slice(INPUT_PREFIX.length), at);
    else out.steps.set(id, at);
  };
  let bottom = -Infinity;
  let left = Infinity;
  for (const id of g.nodes()) {
    const node = g.node(id) as { x: number; y: number; width: number; height: number } | undefined;
    if (!node) continue;
    // dagre gives centres; the canvas positions cards by their top-left corner.
    const at = { x: Math.round(node.x - node.width / 2), y: Math.round(node.y - node.height / 2) };
    place(id, at);
    bottom = Math.max(bottom, at.y + node.height);
    left = Math.min(left, at.x);
  }

  // The rest, in a row in the order a person placed them (left to right), below the connected part.
  const loose = [
    ...chain.inputs.filter((i) => !connected.has(INPUT_PREFIX + i.name)).map((i) => ({ id: INPUT_PREFIX + i.name, at: i.position ?? { x: -Infinity, y: 0 } })),
    ...chain.steps.filter((s) => !connected.has(s.id)).map((s) => ({ id: s.id, at: s.position })),
  ].sort((a, b) => a.at.x - b.at.x || a.at.y - b.at.y);
  if (loose.length) {
    const y = Number.isFinite(bottom) ? bottom + rankSep : Math.min(...chain.steps.map((s) => s.position.y), 0);
    let x = Number.isFinite(left) ? left : Math.min(...chain.steps.map((s) => s.position.x), 0);
    for (const { id } of loose) {
      place(id, { x: Math.round(x), y: Math.round(y) });
      x += sizeOf(id).width + rankSep;
    }
  }
  return out;
}

/** Step positions of {@link layoutChain}. */
export function autoLayout(chain: Chain, opts: LayoutOptions = {}, registry: StepRegistry): Map<string, XY> {
  return layoutChain(chain, opts, registry).steps;
}

export function applyLayout(chain: Chain, positions: ReadonlyMap<string, XY>): Chain {
  return { ...chain, steps: chain.steps.map((s) => (positions.has(s.id) ? { ...s, position: positions.get(s.id) as XY } : s)) };
}
