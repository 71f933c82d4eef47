import { ReactFlowProvider } from '@xyflow/react';
import { lazy, Suspense } from 'react';
import { Canvas } from './canvas/Canvas.tsx';
import { Palette } from './canvas/Palette.tsx';
import { Inspector } from './inspector/Inspector.tsx';
import { Library } from './library/Library.tsx';
import { RunList } from './runs/RunList.tsx';
import { useRunStore } from './stores/run-store.ts';
import { selectReplayOpen } from './stores/selectors.ts';
import { TopBar } from './TopBar.tsx';
import { Toasts } from './ui/Toasts.tsx';

// The replay view loads the first time a run is opened; it is not needed to paint the editor.
const ReplayView = lazy(() => import('./runs/ReplayView.tsx').then((m) => ({ default: m.ReplayView })));

/** Library and runs on the left, the canvas in the middle, the inspector on the right; replay docks below. */
export function App() {
  const replayOpen = useRunStore(selectReplayOpen);
  return (
    <ReactFlowProvider>
      <div className={replayOpen ? 'app has-replay' : 'app'}>
        <TopBar />
        <nav className="sidebar">
          <Library />
          <Palette />
          <RunList />
        </nav>
        <main className="center">
          <Canvas />
        </main>
        <Inspector />
        {replayOpen && (
          <Suspense fallback={<section className="replay" aria-busy="true" />}>
            <ReplayView />
          </Suspense>
        )}
        <Toasts />
      </div>
    </ReactFlowProvider>
  );
}
