import '@xyflow/react/dist/style.css';
import './styles/app.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { version } from '../package.json';
import { App } from './App.tsx';
import { bootstrap } from './persistence/bootstrap.ts';
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

bootstrap().catch((error: Error) => useEditorStore.getState().pushToast('error', `Seamscope could not start: ${error.message}`));
