/**
 * The size of an edge label's text, from the canvas 2D text metrics of the label font, cached
 * per label. React Flow's EdgeText measures each label it mounts with getBBox, which forces a
 * layout of the whole canvas inside the commit that mounted it, then renders the label a second
 * time at its size: on a large chain each pan frame that brings edges into view paid both. Text
 * metrics need no layout, and labels repeat (binding names), so most cost a Map lookup.
 * The font is `.react-flow__edge-text`'s in app/styles/canvas.css (11px, the --mono family).
 */
const FONT_PX = 11;
const sizes = new Map<string, { width: number; height: number }>();
let context: CanvasRenderingContext2D | null | undefined;

function labelContext(): CanvasRenderingContext2D | null {
  if (context !== undefined) return context;
  context = document.createElement('canvas').getContext('2d');
  const family = getComputedStyle(document.documentElement).getPropertyValue('--mono').trim() || 'monospace';
  if (context) context.font = `${FONT_PX}px ${family}`;
  return context;
}

/** Width and height (px) of `label` set in the edge label font, as getBBox would report them. */
export function edgeLabelSize(label: string): { width: number; height: number } {
  const known = sizes.get(label);
  if (known) return known;
  const metrics = labelContext()?.measureText(label);
  // Without a 2D context (never in a browser we support), a monospace estimate keeps labels readable.
  const size = metrics
    ? { width: metrics.width, height: metrics.fontBoundingBoxAscent + metrics.fontBoundingBoxDescent }
    : { width: label.length * FONT_PX * 0.6, height: FONT_PX * 1.2 };
  if (sizes.size > 5000) sizes.clear();
  sizes.set(label, size);
  return size;
}
