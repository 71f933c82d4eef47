/**
 * Where Fit puts the view: the whole chain when it fits at a readable zoom, else the start of the
 * chain at that zoom (React Flow's own fit clamps the zoom and centres, which shows the middle
 * of a long chain and cuts both ends). Pure, so the rule is tested without a browser.
 */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface FitOptions {
  /** The lowest zoom: full cards, readable titles. */
  minZoom: number;
  maxZoom: number;
  /** Screen pixels kept clear around the chain. */
  padding: number;
  /** Screen pixels at the top that the toolbar covers. */
  top: number;
}

export interface FitViewport {
  x: number;
  y: number;
  zoom: number;
  /** Whether every card is in view. */
  whole: boolean;
}

function union(boxes: readonly Box[]): Box {
  let x1 = Infinity, y1 = Infinity, x2 = -Infinity, y2 = -Infinity;
  for (const b of boxes) {
    x1 = Math.min(x1, b.x);
    y1 = Math.min(y1, b.y);
    x2 = Math.max(x2, b.x + b.width);
    y2 = Math.max(y2, b.y + b.height);
  }
  return { x: x1, y: y1, width: x2 - x1, height: y2 - y1 };
}

/** Places `extent` (flow units, `size` long on screen at the zoom) in a screen span: centred when it fits, else from its start. */
function place(extentStart: number, extentSize: number, zoom: number, spanStart: number, span: number): number {
  const size = extentSize * zoom;
  return size <= span ? spanStart + (span - size) / 2 - extentStart * zoom : spanStart - extentStart * zoom;
}

/** The viewport (screen = flow × zoom + x, y) that shows `nodes` in a `view`-sized canvas. */
export function readableViewport(nodes: readonly Box[], view: { width: number; height: number }, o: FitOptions): FitViewport | null {
  if (nodes.length === 0 || view.width <= 0 || view.height <= 0) return null;
  const all = union(nodes);
  const left = o.padding;
  const top = o.top + o.padding;
  const width = Math.max(1, view.width - 2 * o.padding);
  const height = Math.max(1, view.height - top - o.padding);
  const fit = Math.min(o.maxZoom, width / Math.max(1, all.width), height / Math.max(1, all.height));
  if (fit >= o.minZoom) {
    return { x: place(all.x, all.width, fit, left, width), y: place(all.y, all.height, fit, top, height), zoom: fit, whole: true };
  }
  const zoom = o.minZoom;
  // The start: the chain's left end, and vertically the cards in that first screenful (centred
  // when they fit, from the top when they do not), so a tall first column is not cut in half.
  const reach = all.x + width / zoom;
  const first = union(nodes.filter((n) => n.x < reach));
  return { x: left - all.x * zoom, y: place(first.y, first.height, zoom, top, height), zoom, whole: false };
}
