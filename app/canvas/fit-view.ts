import type { ReactFlowInstance, useStoreApi, Viewport } from '@xyflow/react';
import type { FlowEdge, FlowNode } from './flow-elements.ts';
import { READABLE_ZOOM } from './palette-constants.ts';
import { readableViewport, type FitOptions } from './readable-fit.ts';

type Flow = ReactFlowInstance<FlowNode, FlowEdge>;
export type FlowStore = ReturnType<typeof useStoreApi<FlowNode, FlowEdge>>;

/** The toolbar's band over the top of the canvas (app/designer/Toolbar.tsx), kept clear by a fit. */
const TOOLBAR_PX = 46;
const FIT: FitOptions = { minZoom: READABLE_ZOOM, maxZoom: 1, padding: 24, top: TOOLBAR_PX };
/** Until React Flow has measured an input node (a pill): about its size. */
const INPUT_GUESS = { width: 150, height: 32 };

const boxesOf = (nodes: readonly FlowNode[]) => nodes.map((n) => ({
  x: n.position.x,
  y: n.position.y,
  width: n.measured?.width ?? INPUT_GUESS.width,
  height: n.measured?.height ?? INPUT_GUESS.height,
}));

/**
 * The view a chain opens at, before React Flow has measured anything: the same rule as Fit, on
 * the cards' estimated sizes (app/designer/canvas-nodes.ts presizes them). Null: nothing to fit.
 */
export function openingViewport(nodes: readonly FlowNode[], view: { width: number; height: number }): Viewport | null {
  const fit = readableViewport(boxesOf(nodes), view, FIT);
  return fit && { x: fit.x, y: fit.y, zoom: fit.zoom };
}

/**
 * Fit: the whole chain when its titles stay readable, else its start at the readable zoom
 * (readable-fit.ts), on the sizes React Flow measured.
 */
export function fitReadable(rf: Flow, store: FlowStore, duration = 200): void {
  const { width, height } = store.getState();
  const fit = readableViewport(boxesOf(rf.getNodes()), { width, height }, FIT);
  if (fit) void rf.setViewport({ x: fit.x, y: fit.y, zoom: fit.zoom }, { duration });
}
