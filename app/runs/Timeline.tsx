import type { RunView } from '../../src/trace/replay.ts';
import { formatMs } from '../ui/format.ts';

interface Props {
  view: RunView;
  current: { producer: string; consumer: string } | null;
  onPick(stepId: string): void;
}

/** The run's steps in the order they ran, with status; the current boundary's two ends are marked. */
export function Timeline({ view, current, onPick }: Props) {
  return (
    <ol className="timeline" aria-label="Steps in run order">
      {view.steps.map((s) => {
        const role = current?.producer === s.stepId ? 'producer' : current?.consumer === s.stepId ? 'consumer' : '';
        return (
          <li key={s.stepId}>
            <button type="button" className={`timeline-step status-${s.status} ${role ? `role-${role}` : ''}`} onClick={() => onPick(s.stepId)} data-testid={`replay.step.${s.stepId}`}>
              <span className="status-dot" />
              <span className="timeline-name">{s.name}</span>
              <span className="muted small">
                {s.status}
                {s.attempts.length > 1 ? ` · ${s.attempts.length} attempts` : ''}
                {s.latencyMs !== undefined ? ` · ${formatMs(s.latencyMs)}` : ''}
              </span>
            </button>
          </li>
        );
      })}
    </ol>
  );
}
