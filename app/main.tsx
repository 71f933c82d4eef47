import '@xyflow/react/dist/style.css';
import './styles/app.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { version } from '../package.json';
import { App } from './App.tsx';
import { afterCanvasPaint } from './canvas/canvas-paint.ts';
import { useEditorStore } from './stores/editor-store.ts';
import { benchHooks, isBenchPage } from './designer/bench-hooks.ts';
import { startBench } from './designer/bench-mode.ts';
import { startPreferences } from './persistence/preferences.ts';
import { usePaneStore } from './ui/panes/pane-store.ts';

// The only global: what build is running, for bug reports and tests.
Object.defineProperty(window, '__seamscope', { value: Object.freeze({ version }), configurable: false, writable: false });

// Before the first render: this device's canvas tool and pane sizes, kept as they change.
startPreferences(useEditorStore, usePaneStore);

// scripts/bench-canvas.ts: a generated chain, opened before the first render (no database, and
// no extra round trip for a bench module: the bare React Flow page it is compared with renders
// its nodes straight away too). Only the dev server and a bench build have it (bench-hooks.ts).
const isBench = benchHooks && isBenchPage;
let benchFailure: Error | null = null;
if (isBench) {
  try {
    startBench(location.search);
  } catch (error) {
    benchFailure = error as Error;
  }
}

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

const startFailed = (error: Error) => useEditorStore.getState().pushToast('error', `Seamscope could not start: ${error.message}`);
// Problems, lint and boundary markers follow the open chain: a subscription loaded once the
// canvas has painted, with the checks it runs (validation and lint are not needed to draw a chain).
afterCanvasPaint()
  .then(() => import('./designer/analysis-subscriber.ts'))
  .then((m) => m.startAnalysis(useEditorStore))
  .catch(startFailed);
if (benchFailure) startFailed(benchFailure);
else if (!isBench) {
  // Storage, the library and autosave load in parallel with the first render, not before it.
  import('./persistence/bootstrap.ts')
    .then((m) => m.bootstrap())
    .then(() => import('./library/tab-sync.ts'))
    .then((m) => m.startTabSync())
    .catch(startFailed);
}
