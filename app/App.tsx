import { ReactFlowProvider } from '@xyflow/react';
import { lazy, Suspense } from 'react';
import { afterCanvasPaint, canvasModule } from './canvas/canvas-paint.ts';
import { Palette } from './canvas/Palette.tsx';
import { selectEvalViewOpen, useEvalStore } from './evaluate/eval-store.ts';
import { Inspector } from './inspector/Inspector.tsx';
import { selectEgressQuestion, useEgressStore } from './stores/egress-store.ts';
import { useRunStore } from './stores/run-store.ts';
import { selectReplayOpen } from './stores/selectors.ts';
import { TopBar } from './TopBar.tsx';
import { PaneLayoutContext } from './ui/layout-context.ts';
import { Toasts } from './ui/Toasts.tsx';
import { Pane, PaneSeparator } from './ui/panes/AppPanes.tsx';
import { usePaneLayoutState } from './ui/use-pane-layout.ts';

// The replay view loads the first time a run is opened; it is not needed to paint the editor.
const ReplayView = lazy(() => import('./runs/ReplayView.tsx').then((m) => ({ default: m.ReplayView })));
// The canvas, the chain library and the run list show what storage holds, which arrives after
// first paint (persistence/bootstrap.ts, itself loaded with import()). The canvas chunk is
// already loading (canvas-paint.ts); the library and the run list load once it has painted.
const Canvas = lazy(() => canvasModule.then((m) => ({ default: m.Canvas })));
const Library = lazy(() => afterCanvasPaint().then(() => import('./library/Library.tsx')).then((m) => ({ default: m.Library })));
const RunList = lazy(() => afterCanvasPaint().then(() => import('./runs/RunList.tsx')).then((m) => ({ default: m.RunList })));
// Evaluate brings the eval core, the engine and the tokenizer: loaded when the view is first shown.
const EvaluateView = lazy(() => import('./evaluate/EvaluateView.tsx'));
// The webhook question is asked only during a run: its dialog loads when it is asked.
const WebhookConsent = lazy(() => import('./egress/WebhookConsent.tsx').then((m) => ({ default: m.WebhookConsent })));

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
                  <Suspense fallback={<div className="canvas" aria-busy="true" />}>
                    <Canvas />
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
