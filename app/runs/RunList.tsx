import { useEffect } from 'react';
import { useEditorStore } from '../stores/editor-store.ts';
import { useRunStore } from '../stores/run-store.ts';
import { selectChain, selectReplay, selectRuns } from '../stores/selectors.ts';
import { formatTime, preview } from '../ui/format.ts';
import { openReplay, refreshRuns } from './run-actions.ts';

/** The open chain's runs, newest first; a click opens the replay. */
export function RunList() {
  const chainId = useEditorStore(selectChain)?.id;
  const runs = useRunStore(selectRuns);
  const replay = useRunStore(selectReplay);
  const toast = useEditorStore((s) => s.pushToast);

  useEffect(() => {
    if (!chainId) return;
    refreshRuns(chainId).catch((e: Error) => toast('error', `Could not list runs: ${e.message}`));
  }, [chainId, toast]);

  const shown = runs.filter((r) => r.chainId === chainId);
  return (
    <section className="runs" aria-label="Runs">
      <div className="section-title">
        Runs <span className="count">{shown.length}</span>
      </div>
      <ul className="run-list">
        {shown.map((run) => (
          <li key={run.id}>
            <button
              type="button"
              className={replay?.meta.id === run.id ? 'run-item is-open' : 'run-item'}
              data-testid={`runs.item.${run.id}`}
              onClick={() => void openReplay(run.id)}
            >
              <span className="run-item-head">
                <span className={`status-pill status-${run.status}`}>{run.status}</span>
                <span className="muted small">{formatTime(run.startedAt)}</span>
              </span>
              <span className="run-item-model muted small">{run.model}</span>
              <span className="run-item-output small">{run.error ? preview(run.error) : preview(run.output) || '—'}</span>
            </button>
          </li>
        ))}
        {shown.length === 0 && <li className="muted small">No runs yet. Press Run.</li>}
      </ul>
    </section>
  );
}
