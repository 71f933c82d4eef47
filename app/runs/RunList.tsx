import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { selectCollectorProblem, selectCollectorStatus, useCollectorStore } from '../stores/collector-store.ts';
import { useEditorStore } from '../stores/editor-store.ts';
import { useRunStore } from '../stores/run-store.ts';
import { selectChain, selectLive, selectReplay, selectRuns } from '../stores/selectors.ts';
import { formatTime } from '../ui/format.ts';
import { importTrace, refreshRuns } from './run-actions.ts';
import { evalIdOf, groupRuns } from './run-groups.ts';
import { RunRow } from './RunRow.tsx';
import { whenIdle } from '../ui/when-idle.ts';

// The metrics table loads when first opened.
const MetricsDialog = lazy(() => import('./metrics/MetricsDialog.tsx'));
// Connect collector and the connection behind it load when the person asks for them.
const CollectorPanel = lazy(() => import('./collector/CollectorPanel.tsx'));

/** The open chain's runs, newest first; a click opens the replay. Forks name their parent. */
export function RunList() {
  const chainId = useEditorStore(selectChain)?.id;
  const runs = useRunStore(selectRuns);
  const replay = useRunStore(selectReplay);
  const running = useRunStore(selectLive)?.status === 'running';
  const toast = useEditorStore((s) => s.pushToast);
  const [metricsOpen, setMetricsOpen] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const collector = useCollectorStore(selectCollectorStatus);
  const collectorProblem = useCollectorStore(selectCollectorProblem);
  const [askingCollector, setAskingCollector] = useState(false);

  useEffect(() => {
    if (!chainId) return;
    // The canvas paints first; the run list (IndexedDB) follows when the page is idle.
    return whenIdle(() => void refreshRuns(chainId).catch((e: Error) => toast('error', `Could not list runs: ${e.message}`)));
  }, [chainId, toast]);

  const shown = runs.filter((r) => r.chainId === chainId);
  const byId = new Map(shown.map((r) => [r.id, r]));
  // Evaluation runs go under their batch, collapsed: a batch of 40 items does not bury the person's own runs.
  const { own, batches } = groupRuns(shown);
  const [openBatches, setOpenBatches] = useState<ReadonlySet<string>>(() => new Set());
  const replayBatch = replay ? evalIdOf(replay.meta) : null;
  return (
    <section className="runs" aria-label="Runs">
      <div className="section-title">
        Runs <span className="count" title={batches.length ? `${own.length} of your own; ${shown.length - own.length} in ${batches.length} evaluation${batches.length === 1 ? '' : 's'} below` : undefined}>{own.length}</span>
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
          {collector === 'off' && (
            <button type="button" className="button small" data-testid="collector.open" title="Read traces live from `seamscope collect` as your application sends them" onClick={() => setAskingCollector(true)}>
              Connect collector
            </button>
          )}
        </span>
      </div>
      {(askingCollector || collector !== 'off' || collectorProblem) && (
        <Suspense fallback={null}>
          <CollectorPanel asking={askingCollector} onAsked={() => setAskingCollector(false)} />
        </Suspense>
      )}
      <ul className="run-list">
        {own.map((run) => <RunRow key={run.id} run={run} byId={byId} openId={replay?.meta.id} running={running} />)}
        {own.length === 0 && <li className="muted small">{batches.length ? 'No runs of your own yet. Press Run.' : 'No runs yet. Press Run.'}</li>}
      </ul>
      {batches.length > 0 && (
        <ul className="run-list run-batches" aria-label="Evaluation runs" data-testid="runs.batches">
          {batches.map((batch) => {
            // The batch holding the run the replay shows stays open, so that run is in view.
            const expanded = openBatches.has(batch.evalId) || batch.evalId === replayBatch;
            const failed = batch.runs.filter((r) => r.status === 'failed').length;
            return (
              <li key={batch.evalId} className="run-batch" data-testid={`runs.batch.${batch.evalId}`}>
                <button
                  type="button"
                  className="run-batch-head"
                  aria-expanded={expanded}
                  title={`Runs of the evaluation ${batch.evalId}: each is one dataset item of one variant`}
                  onClick={() => setOpenBatches((open) => toggled(open, batch.evalId))}
                >
                  <span aria-hidden="true">{expanded ? '▾' : '▸'}</span>
                  <span className="run-batch-name">Evaluation · {formatTime(batch.startedAt)}</span>
                  <span className="muted small">
                    {batch.runs.length} run{batch.runs.length === 1 ? '' : 's'}
                    {failed ? ` · ${failed} failed` : ''}
                  </span>
                </button>
                {expanded && (
                  <ul className="run-list run-batch-runs">
                    {batch.runs.map((run) => <RunRow key={run.id} run={run} byId={byId} openId={replay?.meta.id} running={running} />)}
                  </ul>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {metricsOpen && chainId && (
        <Suspense fallback={null}>
          <MetricsDialog chainId={chainId} onClose={() => setMetricsOpen(false)} />
        </Suspense>
      )}
    </section>
  );
}

function toggled(set: ReadonlySet<string>, id: string): ReadonlySet<string> {
  const next = new Set(set);
  if (!next.delete(id)) next.add(id);
  return next;
}
