import { Panel, useReactFlow, useStore, type ReactFlowState } from '@xyflow/react';
import { memo, useEffect, useMemo, useRef, type PointerEvent } from 'react';
import type { FlowEdge, FlowNode } from '../canvas/flow-elements.ts';

const W = 150;
const H = 96;
const PAD = 40;

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

function boundsOf(nodes: readonly FlowNode[]): Box {
  let x1 = Infinity, y1 = Infinity, x2 = -Infinity, y2 = -Infinity;
  for (const n of nodes) {
    const w = n.measured?.width ?? 212;
    const h = n.measured?.height ?? 100;
    x1 = Math.min(x1, n.position.x);
    y1 = Math.min(y1, n.position.y);
    x2 = Math.max(x2, n.position.x + w);
    y2 = Math.max(y2, n.position.y + h);
  }
  if (!Number.isFinite(x1)) return { x: 0, y: 0, w: 1, h: 1 };
  return { x: x1 - PAD, y: y1 - PAD, w: x2 - x1 + 2 * PAD, h: y2 - y1 + 2 * PAD };
}

/** Each card's box as four numbers (x1, y1, x2, y2): computed when the cards change, read every pan frame. */
function cardBoxes(nodes: readonly FlowNode[]): Float64Array {
  const out = new Float64Array(nodes.length * 4);
  nodes.forEach((n, i) => {
    out[i * 4] = n.position.x;
    out[i * 4 + 1] = n.position.y;
    out[i * 4 + 2] = n.position.x + (n.measured?.width ?? 212);
    out[i * 4 + 3] = n.position.y + (n.measured?.height ?? 100);
  });
  return out;
}

/**
 * What the view leaves out, said under the overview: how many cards and which way they lie
 * (a fit that shows a long chain's start leaves its rest to the right). It runs on every pan
 * frame, so it walks the flat boxes of cardBoxes rather than the node objects.
 */
function outOfView(boxes: Float64Array, view: Box): { count: number; ways: string } {
  let count = 0;
  let left = false, right = false, above = false, below = false;
  const vx1 = view.x - 1, vy1 = view.y - 1, vx2 = view.x + view.w + 1, vy2 = view.y + view.h + 1;
  for (let i = 0; i < boxes.length; i += 4) {
    const l = boxes[i]! < vx1, t = boxes[i + 1]! < vy1, r = boxes[i + 2]! > vx2, b = boxes[i + 3]! > vy2;
    if (!(l || t || r || b)) continue;
    count++;
    left ||= l;
    above ||= t;
    right ||= r;
    below ||= b;
  }
  return { count, ways: `${left ? '←' : ''}${right ? '→' : ''}${above ? '↑' : ''}${below ? '↓' : ''}` };
}

const selectViewport = (s: ReactFlowState) => `${s.transform[0]},${s.transform[1]},${s.transform[2]},${s.width},${s.height}`;

/**
 * An overview of the whole chain, drawn on a <canvas>. React Flow's MiniMap renders one SVG
 * element and one store subscription per node, which on a 3,000-step chain costs more per pan
 * frame than the canvas itself; here the nodes are painted once per change of the node list
 * and a pan or zoom only moves the viewport rectangle. Click or drag on it to move the view.
 */
export default memo(function CanvasMiniMap({ nodes }: { nodes: readonly FlowNode[] }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const rf = useReactFlow<FlowNode, FlowEdge>();
  const viewport = useStore(selectViewport);
  const world = useMemo(() => boundsOf(nodes), [nodes]);
  const scale = Math.min(W / world.w, H / world.h);
  const offset = { x: (W - world.w * scale) / 2, y: (H - world.h * scale) / 2 };

  useEffect(() => {
    // Paint at most once per frame, however often the node list changes (a drag).
    const frame = requestAnimationFrame(() => {
      const ctx = canvas.current?.getContext('2d');
      if (!ctx) return;
      const dpr = window.devicePixelRatio || 1;
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.clearRect(0, 0, W, H);
      for (const n of nodes) {
        ctx.fillStyle = n.selected ? '#818cf8' : n.type === 'chainInput' ? '#c7d2fe' : '#d4d4d8';
        const w = Math.max(1, (n.measured?.width ?? 212) * scale);
        const h = Math.max(1, (n.measured?.height ?? 100) * scale);
        ctx.fillRect(offset.x + (n.position.x - world.x) * scale, offset.y + (n.position.y - world.y) * scale, w, h);
      }
    });
    return () => cancelAnimationFrame(frame);
  }, [nodes, world, scale, offset.x, offset.y]);

  const [tx, ty, zoom, width, height] = viewport.split(',').map(Number) as [number, number, number, number, number];
  const view = { x: offset.x + (-tx / zoom - world.x) * scale, y: offset.y + (-ty / zoom - world.y) * scale, w: (width / zoom) * scale, h: (height / zoom) * scale };

  const boxes = useMemo(() => cardBoxes(nodes), [nodes]);
  const rest = useMemo(
    () => outOfView(boxes, { x: -tx / zoom, y: -ty / zoom, w: width / zoom, h: height / zoom }),
    [boxes, tx, ty, zoom, width, height],
  );

  const moveTo = (e: PointerEvent<HTMLDivElement>) => {
    const rect = e.currentTarget.getBoundingClientRect();
    const x = world.x + (e.clientX - rect.left - offset.x) / scale;
    const y = world.y + (e.clientY - rect.top - offset.y) / scale;
    void rf.setCenter(x, y, { zoom: rf.getZoom() });
  };

  return (
    <Panel position="bottom-right" className="react-flow__minimap canvas-minimap" data-testid="minimap">
      <div
        style={{ position: 'relative', width: W, height: H, cursor: 'pointer' }}
        onPointerDown={(e) => {
          e.currentTarget.setPointerCapture(e.pointerId);
          moveTo(e);
        }}
        onPointerMove={(e) => e.buttons === 1 && moveTo(e)}
        role="img"
        aria-label="Overview of the chain: click to move the view there"
      >
        <canvas ref={canvas} width={W * (window.devicePixelRatio || 1)} height={H * (window.devicePixelRatio || 1)} style={{ width: W, height: H, display: 'block' }} />
        <svg width={W} height={H} style={{ position: 'absolute', inset: 0, pointerEvents: 'none' }}>
          <path
            fillRule="evenodd"
            fill="rgb(240 240 240 / 0.6)"
            stroke="#a1a1aa"
            strokeWidth={1}
            d={`M0,0h${W}v${H}h${-W}z M${view.x},${view.y}h${view.w}v${view.h}h${-view.w}z`}
          />
        </svg>
      </div>
      {rest.count > 0 && (
        <div className="minimap-rest" data-testid="minimap.rest" title={`${rest.count} card${rest.count === 1 ? '' : 's'} out of view (${rest.ways}): the box above is the view; click or drag there to move it`}>
          {rest.count} more {rest.ways}
        </div>
      )}
    </Panel>
  );
});
