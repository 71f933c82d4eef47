import type { FlowEdge, FlowNode } from '../canvas/flow-elements.ts';

type Box = { x: number; y: number; w: number; h: number };
type XY = { x: number; y: number };

/** Above this many cards labels stay at React Flow's midpoint (the search would cost a frame). */
export const LABEL_PLACEMENT_MAX_NODES = 600;
// Along the edge from its middle outwards: the first point not on a card wins.
const CANDIDATES = [0.5, 0.38, 0.62, 0.27, 0.73, 0.17, 0.83, 0.1, 0.9];
const CELL = 320;
const LABEL_HALF = { w: 36, h: 10 };

function boxOf(node: FlowNode): Box | null {
  const w = node.measured?.width ?? node.width;
  const h = node.measured?.height ?? node.height;
  return w && h ? { x: node.position.x, y: node.position.y, w, h } : null;
}

/** React Flow's default bezier (curvature 0.25) between a right-hand source and a left-hand target handle. */
export function bezierPoint(s: XY, t: XY, at: number): XY {
  const dx = t.x - s.x;
  const offset = dx >= 0 ? 0.5 * dx : 0.25 * 25 * Math.sqrt(-dx);
  const c1 = { x: s.x + offset, y: s.y };
  const c2 = { x: t.x - offset, y: t.y };
  const u = 1 - at;
  return {
    x: u * u * u * s.x + 3 * u * u * at * c1.x + 3 * u * at * at * c2.x + at * at * at * t.x,
    y: u * u * u * s.y + 3 * u * u * at * c1.y + 3 * u * at * at * c2.y + at * at * at * t.y,
  };
}

/**
 * Edge labels that would sit on a card (an edge that skips a column passes behind the cards in
 * between) move along their edge to the nearest point in the open, so every label can be read.
 * Edges whose midpoint is clear are returned unchanged (same object).
 */
export function placeEdgeLabels(edges: FlowEdge[], nodes: readonly FlowNode[]): FlowEdge[] {
  if (nodes.length > LABEL_PLACEMENT_MAX_NODES) return edges;
  const boxes = new Map<string, Box>();
  const grid = new Map<string, Box[]>();
  for (const node of nodes) {
    const box = boxOf(node);
    if (!box) continue;
    boxes.set(node.id, box);
    for (let gx = Math.floor(box.x / CELL); gx <= Math.floor((box.x + box.w) / CELL); gx++) {
      for (let gy = Math.floor(box.y / CELL); gy <= Math.floor((box.y + box.h) / CELL); gy++) {
        const key = `${gx}:${gy}`;
        const list = grid.get(key);
        if (list) list.push(box);
        else grid.set(key, [box]);
      }
    }
  }
  const covered = (p: XY) => {
    const list = grid.get(`${Math.floor(p.x / CELL)}:${Math.floor(p.y / CELL)}`) ?? [];
    return list.some((b) => p.x + LABEL_HALF.w > b.x && p.x - LABEL_HALF.w < b.x + b.w && p.y + LABEL_HALF.h > b.y && p.y - LABEL_HALF.h < b.y + b.h);
  };
  return edges.map((edge) => {
    const s = boxes.get(edge.source);
    const t = boxes.get(edge.target);
    if (!edge.label || !s || !t) return edge;
    const from = { x: s.x + s.w, y: s.y + s.h / 2 };
    const to = { x: t.x, y: t.y + t.h / 2 };
    if (!covered(bezierPoint(from, to, 0.5))) return edge;
    for (const at of CANDIDATES.slice(1)) {
      const p = bezierPoint(from, to, at);
      if (!covered(p)) return { ...edge, data: { ...edge.data!, labelAt: { x: Math.round(p.x), y: Math.round(p.y) } } };
    }
    return edge;
  });
}
