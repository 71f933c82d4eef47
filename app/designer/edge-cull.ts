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

/** Edges whose two ends' bounding box meets the window, plus selected edges and edges of dragged nodes. */
export function cullEdges(edges: FlowEdge[], nodes: readonly FlowNode[], win: Window | null, keep: (e: FlowEdge) => boolean): FlowEdge[] {
  if (!win || edges.length < CULL_MIN_EDGES) return edges;
  const boxes = new Map<string, { x1: number; y1: number; x2: number; y2: number }>();
  for (const n of nodes) {
    const w = n.measured?.width ?? 240;
    const h = n.measured?.height ?? 200;
    boxes.set(n.id, { x1: n.position.x, y1: n.position.y, x2: n.position.x + w, y2: n.position.y + h });
  }
  const x2 = win.x + win.w;
  const y2 = win.y + win.h;
  return edges.filter((e) => {
    if (keep(e)) return true;
    const a = boxes.get(e.source);
    const b = boxes.get(e.target);
    if (!a || !b) return true;
    return Math.max(a.x2, b.x2) >= win.x && Math.min(a.x1, b.x1) <= x2 && Math.max(a.y2, b.y2) >= win.y && Math.min(a.y1, b.y1) <= y2;
  });
}
