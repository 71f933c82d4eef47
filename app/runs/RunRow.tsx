import type { RunMeta } from '../../src/trace/index.ts';
import { formatCost, formatTime, formatTokens, preview } from '../ui/format.ts';
import { openReplay, resumeRun } from './run-actions.ts';

/** One stored run in a run list: status, time, model and tokens, its output; a click opens the replay. Forks name their parent. */
export function RunRow({ run, byId, openId, running }: { run: RunMeta; byId: ReadonlyMap<string, RunMeta>; openId: string | undefined; running: boolean }) {
  const parent = run.forkedFrom ? byId.get(run.forkedFrom.runId) : undefined;
  const tokens = run.usage ? run.usage.inputTokens + run.usage.outputTokens : 0;
  return (
    <li className="run-row">
      <button
        type="button"
        className={openId === run.id ? 'run-item is-open' : 'run-item'}
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
            {run.forkedFrom.editedOutput ? ' (edited output)' : ''}
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
}
