import type { StepView } from '../../src/trace/index.ts';
import { formatCost, formatMs } from '../ui/format.ts';
import { AttemptToolCalls } from './AttemptToolCalls.tsx';
import { RerunFidelityLine } from './RerunFidelityLine.tsx';
import { failureLabel, MALFORMED } from './run-figures.ts';

const checkLabels: Record<string, string> = {
  jsonSchema: 'JSON Schema', quoteContainment: 'Quote containment', idSet: 'Id set', citations: 'Citations', numberConsistency: 'Number consistency', rule: 'Rule',
};

function pillClass(failure: string | undefined): string {
  if (!failure) return 'status-pill status-succeeded';
  return MALFORMED.has(failure) ? 'status-pill status-malformed' : 'status-pill status-failed';
}

/**
 * A step's attempts, each in full: why it failed (malformed and endpoint failures read
 * differently on purpose), what the validator said, the feedback sent back for the retry, and
 * what came back. Then the gate checks and the step's end. All text is rendered as text.
 */
export function AttemptList({ step }: { step: StepView }) {
  // Tool calls and reasoning are only ever shown here, so an attempt that has them is shown.
  // A rerun of a recorded call always says what of the recorded request it sent.
  const interesting = step.attempts.length > 1 || step.attempts.some((a) => a.record.failure || a.record.toolCalls?.length || a.record.reasoning || a.record.asRecorded) || step.failure || step.checks.length > 0 || step.transportRetries.length > 0;
  if (!interesting) return null;
  return (
    <div className="attempts" data-testid={`replay.attempts.${step.stepId}`}>
      <div className="pane-subtitle">
        Attempts of {step.name} <span className="muted">({step.attempts.length})</span>
      </div>
      <ol className="attempt-list">
        {step.attempts.map(({ attempt, record }, i) => (
          <li key={i} className={record.failure ? 'attempt is-failed' : 'attempt is-ok'} data-testid={`replay.attempt.${step.stepId}.${i + 1}`}>
            <div className="attempt-head">
              <span>Attempt {attempt}</span>
              <span className={pillClass(record.failure)}>{failureLabel(record.failure)}</span>
              {record.status !== undefined && <span className="muted small">HTTP {record.status}</span>}
              <span className="muted small">{formatMs(record.latencyMs)}</span>
              {record.usage && (
                <span className="muted small">
                  {record.usage.inputTokens} in · {record.usage.outputTokens} out
                </span>
              )}
              {record.costUsd !== undefined && <span className="muted small">{formatCost(record.costUsd)}</span>}
            </div>
            {record.asRecorded && <RerunFidelityLine fidelity={record.asRecorded} testId={`replay.attempt.${step.stepId}.${i + 1}.asRecorded`} />}
            {record.errors.length > 0 && (
              <ul className="attempt-errors">
                {record.errors.map((e, j) => (
                  <li key={j}>{e}</li>
                ))}
              </ul>
            )}
            {record.text !== undefined && (
              <details className="attempt-returned" open={Boolean(record.failure)}>
                <summary className="muted small">What came back</summary>
                <pre className="text-block">{record.text || (record.toolCalls?.length ? '(no text: tool calls only)' : '(empty)')}</pre>
              </details>
            )}
            <AttemptToolCalls record={record} testId={`replay.attempt.${step.stepId}.${i + 1}`} />
            {record.feedback && (
              <div className="attempt-feedback">
                <div className="muted small">Sent back as feedback for attempt {attempt + 1}</div>
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
        <div key={i} className={c.passed ? 'check is-ok' : 'check is-failed'} data-testid={`replay.check.${step.stepId}`}>
          <span className="check-name">{checkLabels[c.check] ?? c.check}</span>: {c.passed ? 'passed' : `${c.problems.length} problem${c.problems.length === 1 ? '' : 's'}`}
          {c.problems.length > 0 && (
            <ul className="attempt-errors">
              {c.problems.map((p, j) => (
                <li key={j}>{p}</li>
              ))}
            </ul>
          )}
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
