import { ReactFlowProvider } from '@xyflow/react';
import { createElement, lazy, Suspense } from 'react';
import { afterCanvasPaint, canvasModule, loadedCanvasModule } from './canvas/canvas-paint.ts';
import { Palette } from './canvas/Palette.tsx';
import { selectEvalViewOpen, useEvalStore } from './evaluate/eval-store.ts';
import { Inspector } from './inspector/Inspector.tsx';
import { selectEgressQuestion, useEgressStore } from './stores/egress-store.ts';
import { useEditorStore } from './stores/editor-store.ts';
import { useRunStore } from './stores/run-store.ts';
import { selectReplayOpen } from './stores/selectors.ts';
import { TopBar } from './TopBar.tsx';
import { PaneLayoutContext } from './ui/layout-context.ts';
import { useLoaded } from './ui/use-loaded.ts';
import { Toasts } from './ui/Toasts.tsx';
import { Pane, PaneSeparator } from './ui/panes/AppPanes.tsx';
import { usePaneLayoutState } from './ui/use-pane-layout.ts';

// The replay view loads the first time a run is opened; it is not needed to paint the editor.
const ReplayView = lazy(() => import('./runs/ReplayView.tsx').then((m) => ({ default: m.ReplayView })));
// The canvas, the chain library and the run list show what storage holds, which arrives after
// first paint (persistence/bootstrap.ts, itself loaded with import()). The canvas chunk is
// already loading (canvas-paint.ts); the library and the run list load once it has painted.
const Library = lazy(() => afterCanvasPaint().then(() => import('./library/Library.tsx')).then((m) => ({ default: m.Library })));
const RunList = lazy(() => afterCanvasPaint().then(() => import('./runs/RunList.tsx')).then((m) => ({ default: m.RunList })));
// Evaluate brings the eval core, the engine and the tokenizer: loaded when the view is first shown.
const EvaluateView = lazy(() => import('./evaluate/EvaluateView.tsx'));
// The webhook question is asked only during a run: its dialog loads when it is asked.
const WebhookConsent = lazy(() => import('./egress/WebhookConsent.tsx').then((m) => ({ default: m.WebhookConsent })));

/**
 * The canvas, rendered once its module is in, by an ordinary state update rather than through
 * React.lazy and Suspense. A Suspense boundary's content, when its chunk arrives, comes in a
 * "retry" render, and React holds a retry back for up to 300 ms after the last fallback it
 * showed whenever anything else in it is still suspended (the inspector's and the library's
 * chunks, at start-up): the cards waited ~220 ms on that timer with nothing to do.
 */
const loadCanvas = () => canvasModule;
const canvasLoadFailed = (error: Error) => useEditorStore.getState().pushToast('error', `The canvas could not load: ${error.message}`);

function CanvasWhenLoaded() {
  const module = useLoaded(loadedCanvasModule, loadCanvas, canvasLoadFailed);
  // One component for the page's life (the module's export), so nothing remounts: createElement,
  // as JSX on a value from state reads to the linter as a component made during render.
  return module ? createElement(module.Canvas) : <div className="canvas" aria-busy="true" />;
}

function WebhookConsentWhenAsked() {
  const asking = useEgressStore(selectEgressQuestion) !== null;
  return asking && <Suspense fallback={null}><WebhookConsent /></Suspense>;
}

/**
 * Library and runs on the left, the canvas in the middle, the inspector on the right; replay
 * docks below. Every separator drags and moves with the arrow keys; sizes are kept per device.
 * Toasts sit at the foot of the canvas pane: above the dock (never over the replay header or
 * panes they report on), clear of the inspector, and under a modal dialog's backdrop.
 */
export function App() {
  const replayOpen = useRunStore(selectReplayOpen);
  const evaluating = useEvalStore(selectEvalViewOpen);
  const layout = usePaneLayoutState();
  return (
    <ReactFlowProvider>
      <PaneLayoutContext value={layout}>
        <div className={replayOpen ? 'app has-replay' : 'app'}>
          <TopBar />
          {/* The designer stays mounted (hidden) behind Evaluate: coming back finds the canvas as it was. */}
          <div className={evaluating ? 'app-rows is-covered' : 'app-rows'}>
            <div className="app-columns" data-testid="pane.workspace">
              <Pane id="sidebar">
                <nav className="sidebar">
                  <Suspense fallback={<section className="library" aria-label="Chains" aria-busy="true" />}>
                    <Library />
                  </Suspense>
                  <Palette />
                  <Suspense fallback={<section className="runs" aria-label="Runs" aria-busy="true" />}>
                    <RunList />
                  </Suspense>
                </nav>
              </Pane>
              <PaneSeparator id="sidebar" />
              <div className="pane-fill pane-canvas" id="pane.canvas" data-testid="pane.canvas">
                <main className="canvas-pane">
                  {/* The canvas's own lazy parts suspend here, never the canvas itself. */}
                  <Suspense fallback={<div className="canvas" aria-busy="true" />}>
                    <CanvasWhenLoaded />
                  </Suspense>
                  <Toasts />
                  <WebhookConsentWhenAsked />
                </main>
              </div>
              <PaneSeparator id="inspector" />
              <Pane id="inspector">
                <Inspector />
              </Pane>
            </div>
            {replayOpen && <PaneSeparator id="replay" />}
            {replayOpen && (
              <Pane id="replay">
                <Suspense fallback={<section className="replay" aria-busy="true" />}>
                  <ReplayView />
                </Suspense>
              </Pane>
            )}
            {evaluating && (
              <Suspense fallback={<section className="evaluate-view" aria-busy="true" />}>
                <EvaluateView />
              </Suspense>
            )}
          </div>
        </div>
      </PaneLayoutContext>
    </ReactFlowProvider>
  );
}
