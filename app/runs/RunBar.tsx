import { lazy, Suspense, useState } from 'react';
import { useEditorStore } from '../stores/editor-store.ts';
import { useRunStore } from '../stores/run-store.ts';
import { selectChain, selectLive } from '../stores/selectors.ts';
import { cancelRun } from './run-actions.ts';

const RunDialog = lazy(() => import('./RunDialog.tsx').then((m) => ({ default: m.RunDialog })));

/** Run button, the current run's status and Cancel, in the top bar. */
export function RunBar() {
  const chain = useEditorStore(selectChain);
  const live = useRunStore(selectLive);
  const [open, setOpen] = useState(false);
  const running = live?.status === 'running';
  return (
    <div className="run-bar">
      {live && (
        <span className={`run-status status-${live.status}`} title={live.error}>
          <span className="status-dot" />
          <span data-testid="run.status" className="run-status-text">
            {live.status}
          </span>
        </span>
      )}
      {running && (
        <button type="button" className="button" data-testid="run.cancel" onClick={cancelRun}>
          Cancel
        </button>
      )}
      <button type="button" className="button primary" data-testid="run.open" disabled={!chain || running} onClick={() => setOpen(true)}>
        Run
      </button>
      {open && chain && (
        <Suspense fallback={null}>
          <RunDialog chain={chain} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </div>
  );
}
