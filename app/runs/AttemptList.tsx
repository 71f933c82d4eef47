import type { StepView } from '../../src/trace/replay.ts';
import { formatMs } from '../ui/format.ts';

/**
 * A step's attempts, failed ones in full: the failure code, the validator's errors and the
 * feedback sent back for the retry. Malformed (invalid_json, schema_violation) and
 * endpoint failures read differently on purpose. All text is rendered as text.
 */
export function AttemptList({ step }: { step: StepView }) {
  const interesting = step.attempts.length > 1 || step.attempts.some((a) => a.record.failure) || step.failure || step.checks.length > 0 || step.transportRetries.length > 0;
  if (!interesting) return null;
  return (
    <div className="attempts" data-testid={`replay.attempts.${step.stepId}`}>
      <div className="pane-subtitle">
        Attempts of {step.name} <span className="muted">({step.attempts.length})</span>
      </div>
      <ol className="attempt-list">
        {step.attempts.map(({ attempt, record }) => (
          <li key={attempt} className={record.failure ? 'attempt is-failed' : 'attempt is-ok'}>
            <div className="attempt-head">
              <span>Attempt {attempt}</span>
              <span className={record.failure ? 'status-pill status-failed' : 'status-pill status-succeeded'}>{record.failure ?? 'passed'}</span>
              {record.status !== undefined && <span className="muted small">HTTP {record.status}</span>}
              <span className="muted small">{formatMs(record.latencyMs)}</span>
              {record.usage && <span className="muted small">{record.usage.inputTokens} in · {record.usage.outputTokens} out</span>}
            </div>
            {record.errors.length > 0 && (
              <ul className="attempt-errors">
                {record.errors.map((e, i) => (
                  <li key={i}>{e}</li>
                ))}
              </ul>
            )}
            {record.feedback && (
              <div className="attempt-feedback">
                <div className="muted small">Feedback sent back</div>
                <pre className="text-block">{record.feedback}</pre>
              </div>
            )}
          </li>
        ))}
      </ol>
      {step.transportRetries.map((t, i) => (
        <div key={i} className="muted small">
          Transport retry after attempt {t.attempt}: {t.status ? `HTTP ${t.status} ` : ''}
          {t.error} (waited {formatMs(t.waitMs)})
        </div>
      ))}
      {step.checks.map((c, i) => (
        <div key={i} className={c.passed ? 'check is-ok' : 'check is-failed'}>
          Check {c.check}: {c.passed ? 'passed' : c.problems.join('; ')}
        </div>
      ))}
      {step.failure && (
        <div className="step-failure">
          Step failed ({step.failure.code}): {step.failure.message}
          {step.fallbackTo ? ` → fell back to ${step.fallbackTo}` : ''}
        </div>
      )}
    </div>
  );
}
