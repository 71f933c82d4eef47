import { useRunStore } from '../stores/run-store.ts';
import { selectReplay } from '../stores/selectors.ts';
import { formatTime } from '../ui/format.ts';
import { BoundaryPanes } from './BoundaryPanes.tsx';
import { StepOnlyPanes } from './StepOnlyPanes.tsx';
import { Timeline } from './Timeline.tsx';
import { useReplayKeys } from './use-replay-keys.ts';

/**
 * A stored run, boundary by boundary. Built from the trace alone: replay never calls a model.
 * The canvas highlights the current producer, consumer and edge from the same store state.
 */
export function ReplayView() {
  const replay = useRunStore(selectReplay);
  useReplayKeys(replay !== null);
  if (!replay) return null;
  const { meta, view, index } = replay;
  const { moveBoundary, setBoundary, closeReplay } = useRunStore.getState();
  const boundary = view.boundaries[index] ?? null;
  const stepById = new Map(view.steps.map((s) => [s.stepId, s]));
  const name = (id: string) => stepById.get(id)?.name ?? id;
  // Without a boundary, the step worth looking at: the one that failed, else the last that ran.
  const focus = boundary ? null : (view.steps.find((s) => s.status === 'failed') ?? [...view.steps].reverse().find((s) => s.attempts.length > 0) ?? view.steps[0] ?? null);

  const pick = (stepId: string) => {
    const at = view.boundaries.findIndex((b) => b.consumer === stepId);
    const from = at >= 0 ? at : view.boundaries.findIndex((b) => b.producer === stepId);
    if (from >= 0) setBoundary(from);
  };

  return (
    <section className="replay" data-testid="replay" aria-label="Replay">
      <header className="replay-head">
        <div className="replay-title">
          <strong>Replay</strong>
          <span className={`status-pill status-${meta.status}`}>{meta.status}</span>
          <span className="muted small">
            {formatTime(meta.startedAt)} · {meta.model} · {meta.chainName}
          </span>
        </div>
        <div className="replay-nav">
          <button type="button" className="button" data-testid="replay.prev" disabled={index <= 0} onClick={() => moveBoundary(-1)} title="Previous boundary (←)">
            ← Previous
          </button>
          <span className="replay-boundary mono" data-testid="replay.boundary" title={boundary ? `${name(boundary.producer)} → ${name(boundary.consumer)}` : undefined}>
            {boundary ? `${boundary.producer} → ${boundary.consumer}` : 'No boundaries'}
          </span>
          <span className="muted small">{view.boundaries.length ? `${index + 1} of ${view.boundaries.length}` : ''}</span>
          <button
            type="button"
            className="button"
            data-testid="replay.next"
            disabled={index >= view.boundaries.length - 1}
            onClick={() => moveBoundary(1)}
            title="Next boundary (→)"
          >
            Next →
          </button>
          <button type="button" className="button" data-testid="replay.close" onClick={closeReplay}>
            Close
          </button>
        </div>
      </header>
      <Timeline view={view} current={boundary} onPick={pick} />
      {meta.error && <div className="replay-error">{meta.error}</div>}
      {boundary ? (
        <BoundaryPanes boundary={boundary} producer={stepById.get(boundary.producer)} consumer={stepById.get(boundary.consumer)} />
      ) : focus ? (
        <StepOnlyPanes meta={meta} step={focus} />
      ) : (
        <p className="replay-empty muted">No step ran in this run.</p>
      )}
    </section>
  );
}
