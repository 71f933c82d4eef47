import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useEditorStore } from '../stores/editor-store.ts';
import { useRunStore } from '../stores/run-store.ts';
import { selectChain, selectLive, selectReplay, selectRuns } from '../stores/selectors.ts';
import { formatCost, formatTime, formatTokens, preview } from '../ui/format.ts';
import { importTrace, openReplay, refreshRuns, resumeRun } from './run-actions.ts';
import { whenIdle } from '../ui/when-idle.ts';

// The metrics table loads when first opened.
const MetricsDialog = lazy(() => import('./metrics/MetricsDialog.tsx'));

/** The open chain's runs, newest first; a click opens the replay. Forks name their parent. */
export function RunList() {
  const chainId = useEditorStore(selectChain)?.id;
  const runs = useRunStore(selectRuns);
  const replay = useRunStore(selectReplay);
  const running = useRunStore(selectLive)?.status === 'running';
  const toast = useEditorStore((s) => s.pushToast);
  const [metricsOpen, setMetricsOpen] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (!chainId) return;
    // The canvas paints first; the run list (IndexedDB) follows when the page is idle.
    return whenIdle(() => void refreshRuns(chainId).catch((e: Error) => toast('error', `Could not list runs: ${e.message}`)));
  }, [chainId, toast]);

  const shown = runs.filter((r) => r.chainId === chainId);
  const byId = new Map(shown.map((r) => [r.id, r]));
  return (
    <section className="runs" aria-label="Runs">
      <div className="section-title">
        Runs <span className="count">{shown.length}</span>
        <span className="section-actions">
          <button type="button" className="button small" data-testid="runs.metrics" disabled={shown.length === 0} onClick={() => setMetricsOpen(true)}>
            Metrics
          </button>
          <label className="button small" title="Import an OTLP/JSON trace, a Langfuse trace export or a Seamscope .run.json file and replay it (the format is detected)">
            Import trace
            <input
              ref={fileInput}
              type="file"
              accept=".json,application/json"
              data-testid="trace.import"
              className="visually-hidden"
              onChange={(e) => {
                const file = e.target.files?.[0];
                if (!file) return;
                // Cleared afterwards so choosing the same file again imports (or reports) again.
                void importTrace(file).finally(() => {
                  if (fileInput.current) fileInput.current.value = '';
                });
              }}
            />
          </label>
        </span>
      </div>
      <ul className="run-list">
        {shown.map((run) => {
          const parent = run.forkedFrom ? byId.get(run.forkedFrom.runId) : undefined;
          const tokens = run.usage ? run.usage.inputTokens + run.usage.outputTokens : 0;
          return (
            <li key={run.id} className="run-row">
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
                {run.forkedFrom && (
                  <span className="run-fork small" title={`fork of ${parent ? formatTime(parent.startedAt) : 'a deleted run'} at ${run.forkedFrom.stepId}${run.forkedFrom.editedOutput ? ' (edited output)' : ''}`}>
                    fork of {parent ? formatTime(parent.startedAt) : 'a deleted run'} at {run.forkedFrom.stepId}
                    {run.forkedFrom.editedOutput ? ' (edited)' : ''}
                  </span>
                )}
                <span className="run-item-model muted small">
                  {run.model}
                  {tokens > 0 ? ` · ${formatTokens(tokens)} tok` : ''}
                  {run.usage?.costUsd ? ` · ${formatCost(run.usage.costUsd)}` : ''}
                </span>
                <span className="run-item-output small" title={run.error ? preview(run.error) : preview(run.output) || undefined}>{run.error ? preview(run.error) : preview(run.output) || '—'}</span>
              </button>
              {(parent || run.status === 'interrupted') && (
                <span className="run-row-actions">
                  {parent && (
                    <button type="button" className="link-button small" data-testid={`runs.parent.${run.id}`} onClick={() => void openReplay(parent.id)}>
                      Open parent
                    </button>
                  )}
                  {run.status === 'interrupted' && (
                    <button type="button" className="button small" data-testid={`runs.resume.${run.id}`} disabled={running} onClick={() => resumeRun(run.id)}>
                      Resume
                    </button>
                  )}
                </span>
              )}
            </li>
          );
        })}
        {shown.length === 0 && <li className="muted small">No runs yet. Press Run.</li>}
      </ul>
      {metricsOpen && chainId && (
        <Suspense fallback={null}>
          <MetricsDialog chainId={chainId} onClose={() => setMetricsOpen(false)} />
        </Suspense>
      )}
    </section>
  );
}
