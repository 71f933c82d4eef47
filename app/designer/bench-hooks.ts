import type { ReactFlowInstance } from '@xyflow/react';
import type { FlowEdge, FlowNode } from '../canvas/flow-elements.ts';

/**
 * The canvas's hooks for scripts/bench-canvas.ts. Only a page opened with `?bench` exposes the
 * React Flow instance (`window.__rf`, for programmatic pan and zoom); `orve=0` turns off
 * onlyRenderVisibleElements for a comparison run. Nothing here changes a normal page.
 */
declare global {
  interface Window {
    __rf?: ReactFlowInstance<FlowNode, FlowEdge>;
  }
}

const params = new URLSearchParams(globalThis.location?.search ?? '');
export const isBenchPage = params.has('bench');

export const benchCanvasProps = {
  onlyRenderVisibleElements: !(isBenchPage && params.get('orve') === '0'),
};

export function onCanvasInit(rf: ReactFlowInstance<FlowNode, FlowEdge>): void {
  if (isBenchPage) window.__rf = rf;
}
