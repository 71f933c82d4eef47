import { ReactFlowProvider } from '@xyflow/react';
import { lazy, Suspense } from 'react';
import { Group, Panel, Separator } from 'react-resizable-panels';
import { Canvas } from './canvas/Canvas.tsx';
import { WebhookConsent } from './egress/WebhookConsent.tsx';
import { Palette } from './canvas/Palette.tsx';
import { Inspector } from './inspector/Inspector.tsx';
import { Library } from './library/Library.tsx';
import { RunList } from './runs/RunList.tsx';
import { useRunStore } from './stores/run-store.ts';
import { selectReplayOpen } from './stores/selectors.ts';
import { TopBar } from './TopBar.tsx';
import { PaneLayoutContext } from './ui/layout-context.ts';
import { Toasts } from './ui/Toasts.tsx';
import { REPLAY_COLLAPSED_PX, usePaneLayoutState } from './ui/use-pane-layout.ts';

// The replay view loads the first time a run is opened; it is not needed to paint the editor.
const ReplayView = lazy(() => import('./runs/ReplayView.tsx').then((m) => ({ default: m.ReplayView })));

/**
 * Library and runs on the left, the canvas in the middle, the inspector on the right; replay
 * docks below. Every separator drags and moves with the arrow keys; sizes are kept per device.
 * Toasts sit at the foot of the canvas pane: above the dock (never over the replay header or
 * panes they report on), clear of the inspector, and under a modal dialog's backdrop.
 */
export function App() {
  const replayOpen = useRunStore(selectReplayOpen);
  const layout = usePaneLayoutState(replayOpen);
  const { rows, columns, refs, onResize } = layout;
  return (
    <ReactFlowProvider>
      <PaneLayoutContext value={layout.context}>
        <div className={replayOpen ? 'app has-replay' : 'app'}>
          <TopBar />
          <Group orientation="vertical" id="layout.rows" className="app-rows" defaultLayout={rows.defaultLayout} onLayoutChanged={rows.onLayoutChanged}>
            <Panel id="pane.workspace" minSize="160px" className="pane-fill">
              <Group orientation="horizontal" id="layout.columns" className="app-columns" defaultLayout={columns.defaultLayout} onLayoutChanged={columns.onLayoutChanged}>
                <Panel
                  id="pane.sidebar" className="pane-fill" panelRef={refs.sidebar} onResize={onResize.sidebar}
                  defaultSize="256px" minSize="200px" maxSize="420px" collapsible collapsedSize="0px" groupResizeBehavior="preserve-pixel-size"
                >
                  <nav className="sidebar">
                    <Library />
                    <Palette />
                    <RunList />
                  </nav>
                </Panel>
                <Separator id="pane.sidebar.handle" className="resize-handle is-vertical" aria-label="Resize the library" />
                <Panel id="pane.canvas" className="pane-fill" minSize="280px" style={{ overflow: 'hidden' }}>
                  <main className="canvas-pane">
                    <Canvas />
                    <Toasts />
                    <WebhookConsent />
                  </main>
                </Panel>
                <Separator id="pane.inspector.handle" className="resize-handle is-vertical" aria-label="Resize the inspector" />
                <Panel
                  id="pane.inspector" className="pane-fill" panelRef={refs.inspector} onResize={onResize.inspector}
                  defaultSize="360px" minSize="280px" maxSize="60%" collapsible collapsedSize="0px" groupResizeBehavior="preserve-pixel-size"
                >
                  <Inspector />
                </Panel>
              </Group>
            </Panel>
            {replayOpen && <Separator id="pane.replay.handle" className="resize-handle is-horizontal" aria-label="Resize the replay" />}
            {replayOpen && (
              <Panel
                id="pane.replay" className="pane-fill" panelRef={refs.replay} onResize={onResize.replay} style={{ overflow: 'hidden' }}
                defaultSize="45%" minSize="180px" collapsible collapsedSize={`${REPLAY_COLLAPSED_PX}px`}
              >
                <Suspense fallback={<section className="replay" aria-busy="true" />}>
                  <ReplayView />
                </Suspense>
              </Panel>
            )}
          </Group>
        </div>
      </PaneLayoutContext>
    </ReactFlowProvider>
  );
}
