import type { ReactFlowInstance } from '@xyflow/react';
import type { FlowEdge, FlowNode } from '../canvas/flow-elements.ts';

/**
 * The canvas's hooks for scripts/bench-canvas.ts. Only a page opened with `?bench` exposes the
 * React Flow instance (`window.__rf`, for programmatic pan and zoom); `orve=0` turns off
 * onlyRenderVisibleElements for a comparison run. Nothing here changes a normal page.
 *
 * They exist only in the dev server and in a bench build (`vite build --mode bench`, which
 * scripts/bench-canvas.ts makes): in a production build `benchHooks` is the constant false,
 * so the hooks, the `?bench` start and the generated fixture are dropped from the bundle.
 */
declare global {
  interface Window {
    __rf?: ReactFlowInstance<FlowNode, FlowEdge>;
  }
}

export const benchHooks = import.meta.env.DEV || import.meta.env.MODE === 'bench';

const params = new URLSearchParams(benchHooks ? (globalThis.location?.search ?? '') : '');
export const isBenchPage = benchHooks && params.has('bench');

export const benchCanvasProps = {
  onlyRenderVisibleElements: !(benchHooks && isBenchPage && params.get('orve') === '0'),
};

export function onCanvasInit(rf: ReactFlowInstance<FlowNode, FlowEdge>): void {
  if (benchHooks && isBenchPage) window.__rf = rf;
}
