import type { ReplayState } from '../stores/run-store.ts';
import { useEditorStore } from '../stores/editor-store.ts';
import { useRunStore } from '../stores/run-store.ts';
import { selectRuns } from '../stores/selectors.ts';
import { usePaneLayout } from '../ui/layout-context.ts';
import { formatCost, formatTime, formatTokens } from '../ui/format.ts';
import { compareWith } from './diff/diff-actions.ts';
import { openReplay } from './run-actions.ts';

const fail = (what: string) => (error: unknown) => useEditorStore.getState().pushToast('error', `${what}: ${(error as Error).message}`);

/**
 * The replayed run in one line: its status and where it came from (never squeezed: the run's
 * details give way first, in full on hover), then the boundary and the way through it.
 */
export function ReplayHeader({ replay, boundaryLabel, boundaryTitle }: { replay: ReplayState; boundaryLabel: string; boundaryTitle?: string }) {
  const { meta, view, index, live } = replay;
  const runs = useRunStore(selectRuns);
  const { moveBoundary, closeReplay } = useRunStore.getState();
  const { collapsed, toggle } = usePaneLayout();
  const parent = meta.forkedFrom ? runs.find((r) => r.id === meta.forkedFrom?.runId) : undefined;
  const stops = view.boundaries.length || view.steps.length;
  const tokens = meta.usage ? meta.usage.inputTokens + meta.usage.outputTokens : 0;
  const details = [formatTime(meta.startedAt), meta.model, meta.chainName, tokens > 0 ? `${formatTokens(tokens)} tokens` : '', meta.usage?.costUsd ? formatCost(meta.usage.costUsd) : '']
    .filter(Boolean).join(' · ');
  return (
    <header className="replay-head">
      <div className="replay-title">
        <button
          type="button"
          className="icon-button dock-fold"
          data-testid="replay.fold"
          aria-expanded={!collapsed.replay}
          aria-label={collapsed.replay ? 'Expand the replay' : 'Collapse the replay'}
          title={collapsed.replay ? 'Expand the replay' : 'Collapse the replay'}
          onClick={() => toggle('replay')}
        >
          {collapsed.replay ? '▴' : '▾'}
        </button>
        <strong>{live ? 'Live' : 'Replay'}</strong>
        <span className={`status-pill status-${meta.status}`}>{meta.status}</span>
        {meta.forkedFrom && (
          <span className="small replay-fork">
            fork of{' '}
            {parent ? (
              <button type="button" className="link-button" data-testid="replay.parent" onClick={() => void openReplay(parent.id)}>
                {formatTime(parent.startedAt)}
              </button>
            ) : (
              'a deleted run'
            )}{' '}
            at {meta.forkedFrom.stepId}
            {meta.forkedFrom.editedOutput ? ' (edited output)' : ''}
          </span>
        )}
        <span className="muted small replay-meta" title={details}>
          {details}
        </span>
      </div>
      <div className="replay-nav">
        <button type="button" className="button" data-testid="replay.prev" disabled={index <= 0} onClick={() => moveBoundary(-1)} title="Previous (←)">
          ← Previous
        </button>
        <span className="replay-boundary mono" data-testid="replay.boundary" title={boundaryTitle ?? boundaryLabel}>
          {boundaryLabel}
        </span>
        <span className="muted small">{stops ? `${index + 1} of ${stops}` : ''}</span>
        <button type="button" className="button" data-testid="replay.next" disabled={index >= stops - 1} onClick={() => moveBoundary(1)} title="Next (→)">
          Next →
        </button>
        <button type="button" className="button" data-testid="replay.close" onClick={closeReplay}>
          Close
        </button>
      </div>
    </header>
  );
}

/**
 * What can be done with the replayed run: compare it, export it. On the steps row, beside Add
 * to dataset, so the header keeps one line for the run and the way through it.
 */
export function ReplayActions({ replay }: { replay: ReplayState }) {
  const { meta, live } = replay;
  const runs = useRunStore(selectRuns);
  const parent = meta.forkedFrom ? runs.find((r) => r.id === meta.forkedFrom?.runId) : undefined;
  const others = runs.filter((r) => r.chainId === meta.chainId && r.id !== meta.id && r.status !== 'running');
  return (
    <div className="replay-actions">
      {parent && !live && (
        <button type="button" className="button small" data-testid="replay.compareParent" onClick={() => compareWith(parent.id).catch(fail('Could not compare'))}>
          Compare with parent
        </button>
      )}
      {!live && others.length > 0 && (
        <select
          className="input small-select"
          data-testid="replay.compareWith"
          aria-label="Compare with another run"
          value=""
          onChange={(e) => e.target.value && compareWith(e.target.value).catch(fail('Could not compare'))}
        >
          <option value="">Compare with…</option>
          {others.map((r) => (
            <option key={r.id} value={r.id}>
              {formatTime(r.startedAt)} · {r.status}
              {r.forkedFrom ? ` · fork at ${r.forkedFrom.stepId}` : ''}
            </option>
          ))}
        </select>
      )}
      <button type="button" className="button small" data-testid="replay.exportOtlp" disabled={live} title="Download this run as OTLP/JSON (OpenTelemetry GenAI conventions)" onClick={() => import('./interop/trace-interop.ts').then((m) => m.exportRunOtlp(meta.id)).catch(fail('Could not export'))}>
        Export OTLP
      </button>
      <button type="button" className="button small" data-testid="replay.exportRunFile" disabled={live} title="Download this run as a .run.json file (what seamscope inspect and label read)" onClick={() => import('./interop/trace-interop.ts').then((m) => m.exportRunFile(meta.id)).catch(fail('Could not export'))}>
        Export run
      </button>
    </div>
  );
}
