import type { RunMeta, TraceEvent } from '../../src/trace/index.ts';
import type { RunView, StepView } from '../../src/trace/index.ts';
import { formatCost, formatMs, formatTokens } from '../ui/format.ts';
import { failureLabel, fansOut, plannedUnitIds, reusedSteps, stepUsage, unitsOf } from './run-figures.ts';

interface Props {
  meta: RunMeta;
  view: RunView;
  events: readonly TraceEvent[];
  current: { producer: string; consumer: string } | null;
  onPick(stepId: string): void;
  /** Absent while forking is not possible (the run is live, or another run is going). */
  onFork?: (stepId: string) => void;
}

/** Map units shown per step before "+N more": enough to see the batch's shape. */
const MAX_UNITS = 48;

interface CardProps {
  meta: RunMeta;
  view: RunView;
  step: StepView;
  events: readonly TraceEvent[];
  role: string;
  reused: boolean;
  onPick(): void;
  onFork?: () => void;
}

function StepCard({ meta, view, step, events, role, reused, onPick, onFork }: CardProps) {
  const { tokens, costUsd } = stepUsage(step);
  const units = fansOut(step.kind) ? unitsOf(events, step.stepId, plannedUnitIds(meta, view, step.stepId)) : [];
  const failedUnits = units.filter((u) => u.status === 'error').length;
  const figures = [
    step.latencyMs !== undefined && !reused ? formatMs(step.latencyMs) : '',
    tokens > 0 ? `${formatTokens(tokens)} tok` : '',
    costUsd !== undefined ? formatCost(costUsd) : '',
  ].filter(Boolean);
  const canFork = onFork && step.status !== 'pending' && step.status !== 'skipped' && step.status !== 'running';
  // On screen the chip gives way to the steps beside it (figures first, then the name); the hover keeps it whole.
  const said = `${reused ? 'reused' : step.status}${figures.length ? ` · ${figures.join(' · ')}` : ''}`;
  return (
    <div className={`timeline-card status-${step.status} ${role ? `role-${role}` : ''}`}>
      <button type="button" className="timeline-step" onClick={onPick} data-testid={`replay.step.${step.stepId}`} title={`${step.name} · ${said}`}>
        <span className="status-dot" />
        <span className="timeline-name">{step.name}</span>
        <span className="muted small timeline-figures">{said}</span>
      </button>
      {(step.attempts.length > 1 || step.attempts.some((a) => a.record.failure)) && units.length === 0 && (
        <span className="attempt-pips" aria-label={`${step.attempts.length} attempts`}>
          {step.attempts.map((a, i) => (
            <span key={i} className={a.record.failure ? 'pip is-failed' : 'pip is-ok'} title={`Attempt ${a.attempt}: ${failureLabel(a.record.failure)} · ${formatMs(a.record.latencyMs)}`} />
          ))}
        </span>
      )}
      {units.length > 0 && (
        <span className="unit-row" data-testid={`replay.units.${step.stepId}`} title={`${units.length} units: ${units.filter((u) => u.status === 'ok').length} ok, ${failedUnits} failed`}>
          {units.slice(0, MAX_UNITS).map((u) => (
            <span
              key={u.unitId}
              className={`unit is-${u.status}`}
              data-testid={`replay.unit.${step.stepId}.${u.unitId}`}
              title={[
                `${u.unitId}: ${u.status}`,
                u.attempts > 1 ? `${u.attempts} attempts` : '',
                u.latencyMs ? formatMs(u.latencyMs) : '',
                u.tokens ? `${formatTokens(u.tokens)} tok` : '',
                formatCost(u.costUsd),
              ].filter(Boolean).join(' · ') + (u.error ? ` — ${u.error}` : '')}
            >
              {u.unitId}
            </span>
          ))}
          {units.length > MAX_UNITS && <span className="muted small">+{units.length - MAX_UNITS}</span>}
        </span>
      )}
      {canFork && (
        <button type="button" className="fork-button" data-testid={`replay.fork.${step.stepId}`} aria-label={`Rerun from ${step.name}`} title="Rerun from here: edit this step's output, or run it again with the chain as it is now" onClick={onFork}>
          ↻ Rerun
        </button>
      )}
    </div>
  );
}

/**
 * The run's steps in the order they ran: status, latency, tokens and cost; attempts as pips;
 * a map's units as they finish (live runs fill in while the rest are still going). The
 * current boundary's two ends are marked.
 */
export function Timeline({ meta, view, events, current, onPick, onFork }: Props) {
  const reused = reusedSteps(events);
  return (
    <ol className="timeline" aria-label="Steps in run order">
      {view.steps.map((s) => {
        const role = current?.producer === s.stepId ? 'producer' : current?.consumer === s.stepId ? 'consumer' : '';
        return (
          <li key={s.stepId}>
            <StepCard meta={meta} view={view} step={s} events={events} role={role} reused={reused.has(s.stepId)} onPick={() => onPick(s.stepId)} onFork={onFork ? () => onFork(s.stepId) : undefined} />
          </li>
        );
      })}
    </ol>
  );
}
