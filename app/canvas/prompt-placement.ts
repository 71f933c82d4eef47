/** Rectangles in flow coordinates. */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

function overlap(a: Rect, b: Rect): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

/** The position moved so the box lies in `view` where it fits (its top-left kept in view where not). */
function clampInto(at: { x: number; y: number }, size: { width: number; height: number }, view: Rect): { x: number; y: number } {
  const x = Math.max(view.x, Math.min(at.x, view.x + view.width - size.width));
  const y = Math.max(view.y, Math.min(at.y, view.y + view.height - size.height));
  return { x, y };
}

/**
 * Where a prompt about a new edge goes (its top-left, in flow coordinates): beside the edge,
 * at the place that hides least of the two cards it joins, so the person still sees what they
 * are labelling, and inside the part of the canvas in view (`view`; a part out of view counts
 * twice what it hides). Tried in order, first best wins: under the edge's midpoint, above it,
 * left of the target card, right of it. `size` is the prompt's size in flow units.
 */
export function placeEdgePrompt(from: Rect, to: Rect, size: { width: number; height: number }, gap: number, view?: Rect): { x: number; y: number } {
  const mid = { x: (from.x + from.width + to.x) / 2, y: (from.y + from.height / 2 + to.y + to.height / 2) / 2 };
  const toMid = to.y + to.height / 2 - size.height / 2;
  const candidates = [
    { x: mid.x - size.width / 2, y: mid.y + gap },
    { x: mid.x - size.width / 2, y: mid.y - gap - size.height },
    { x: to.x - gap - size.width, y: toMid },
    { x: to.x + to.width + gap, y: toMid },
  ].map((c) => (view ? clampInto(c, size, view) : c));
  let best = candidates[0]!;
  let bestCost = Infinity;
  for (const c of candidates) {
    const box = { ...c, ...size };
    const outside = view ? size.width * size.height - overlap(box, view) : 0;
    const cost = overlap(box, from) + overlap(box, to) + 2 * outside;
    if (cost < bestCost) {
      best = c;
      bestCost = cost;
    }
  }
  return best;
}
