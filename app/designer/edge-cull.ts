import type { FlowEdge, FlowNode } from '../canvas/flow-elements.ts';

/**
 * Edge culling for large chains. With onlyRenderVisibleElements, React Flow tests every edge
 * against the viewport on every store update (every pan frame): ~4,000 edges at 3,000 steps is
 * the largest cost of a frame. Only edges near the view are handed to React Flow instead; the
 * window is three screens wide and tall around the view, snapped to a half-screen grid, so it
 * changes (and the edge list is recomputed) only every half screen of panning or on a zoom step.
 */
export const CULL_MIN_EDGES = 400;

export interface Window {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The cull window for a viewport (`transform` as React Flow stores it) of `width`×`height` px, as a stable key. */
export function cullKey(tx: number, ty: number, zoom: number, width: number, height: number): string {
  if (!width || !height || !zoom) return '';
  // Half-octave zoom steps: between steps the window (one screen of margin) still covers the view.
  const zb = 2 ** (Math.round(Math.log2(zoom) * 2) / 2);
  const w = width / zb;
  const h = height / zb;
  const cx = (width / 2 - tx) / zoom;
  const cy = (height / 2 - ty) / zoom;
  const gx = Math.round(cx / (w / 2));
  const gy = Math.round(cy / (h / 2));
  return `${zb}:${gx}:${gy}:${Math.round(w)}:${Math.round(h)}`;
}

export function windowOf(key: string): Window | null {
  if (!key) return null;
  const [, gx, gy, w, h] = key.split(':').map(Number) as [number, number, number, number, number];
  const cx = (gx * w) / 2;
  const cy = (gy * h) / 2;
  return { x: cx - 1.5 * w, y: cy - 1.5 * h, w: 3 * w, h: 3 * h };
}

/**
 * Each edge's extent, the bounding box of its two ends' cards, as four numbers per edge (x1, y1,
 * x2, y2; NaN when an end is not on the canvas). Computed when the edges or the cards change,
 * not when the cull window moves: a window change then only compares numbers, inside the pan
 * frame that crosses the half-screen line.
 */
export function edgeExtents(edges: readonly FlowEdge[], nodes: readonly FlowNode[]): Float64Array {
  const boxes = new Map<string, FlowNode>();
  for (const n of nodes) boxes.set(n.id, n);
  const out = new Float64Array(edges.length * 4);
  edges.forEach((e, i) => {
    const a = boxes.get(e.source);
    const b = boxes.get(e.target);
    if (!a || !b) return out.fill(Number.NaN, i * 4, i * 4 + 4);
    const aw = a.measured?.width ?? 240, ah = a.measured?.height ?? 200;
    const bw = b.measured?.width ?? 240, bh = b.measured?.height ?? 200;
    out[i * 4] = Math.min(a.position.x, b.position.x);
    out[i * 4 + 1] = Math.min(a.position.y, b.position.y);
    out[i * 4 + 2] = Math.max(a.position.x + aw, b.position.x + bw);
    out[i * 4 + 3] = Math.max(a.position.y + ah, b.position.y + bh);
  });
  return out;
}

/**
 * Edges whose extent (edgeExtents, same order) meets the window, plus those `keep` names
 * (selected edges, edges of dragged cards) and those with an end off the canvas.
 */
export function cullEdges(edges: FlowEdge[], extents: Float64Array, win: Window | null, keep: (e: FlowEdge) => boolean): FlowEdge[] {
  if (!win || edges.length < CULL_MIN_EDGES) return edges;
  const x2 = win.x + win.w;
  const y2 = win.y + win.h;
  return edges.filter((e, i) => {
    const j = i * 4;
    const ex1 = extents[j]!;
    // NaN (an end not on the canvas) fails every comparison: such an edge is kept.
    const meets = !(ex1 > x2 || extents[j + 1]! > y2 || extents[j + 2]! < win.x || extents[j + 3]! < win.y);
    return meets || keep(e);
  });
}
