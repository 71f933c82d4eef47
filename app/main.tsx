import '@xyflow/react/dist/style.css';
import './styles/app.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { version } from '../package.json';
import { App } from './App.tsx';
import { useEditorStore } from './stores/editor-store.ts';

// The only global: what build is running, for bug reports and tests.
Object.defineProperty(window, '__seamscope', { value: Object.freeze({ version }), configurable: false, writable: false });

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

const startFailed = (error: Error) => useEditorStore.getState().pushToast('error', `Seamscope could not start: ${error.message}`);
if (new URLSearchParams(location.search).has('bench')) {
  // scripts/bench-canvas.ts: a generated chain, no database.
  import('./designer/bench-mode.ts').then((m) => m.startBench(location.search)).catch(startFailed);
} else {
  // Storage, the library and autosave load in parallel with the first render, not before it.
  import('./persistence/bootstrap.ts')
    .then((m) => m.bootstrap())
    .then(() => import('./library/tab-sync.ts'))
    .then((m) => m.startTabSync())
    .catch(startFailed);
}
