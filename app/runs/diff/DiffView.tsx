import type { StepDiff } from '../../../src/inspect/run-diff.ts';
import type { ReplayState } from '../../stores/run-store.ts';
import { useRunStore } from '../../stores/run-store.ts';
import { asText, formatMs, formatTime, formatTokens } from '../../ui/format.ts';

type Compare = NonNullable<ReplayState['compare']>;

const pair = (a: string, b: string) => (a === b ? <span>{a}</span> : <span className="diff-changed">{a} → {b}</span>);
const num = (n: number | null, f: (n: number) => string = String) => (n === null ? '—' : f(n));

function OutputCell({ step }: { step: StepDiff }) {
  if (!step.outputChanged) return <td className="muted small">same</td>;
  return (
    <td>
      <div className="diff-outputs">
        <div>
          <div className="muted small">A</div>
          <pre className="text-block diff-output">{asText(step.outputA) || '(none)'}</pre>
        </div>
        <div>
          <div className="muted small">B</div>
          <pre className="text-block diff-output">{asText(step.outputB) || '(none)'}</pre>
        </div>
      </div>
    </td>
  );
}

/**
 * Two runs step by step (typically a fork against its parent): status, whether the output
 * changed (both shown when it did), facts that survived the step's boundaries, tokens,
 * latency and attempts. Outputs are model text, rendered as text.
 */
export function DiffView({ compare, names }: { compare: Compare; names: ReadonlyMap<string, string> }) {
  const { a, b, diff } = compare;
  const label = (m: typeof a) => `${formatTime(m.startedAt)} · ${m.status}${m.forkedFrom ? ` · fork at ${m.forkedFrom.stepId}` : ''}`;
  return (
    <div className="diff" data-testid="diff">
      <div className="diff-head">
        <span>
          <strong>A</strong> {label(a)} {b.forkedFrom?.runId === a.id ? <span className="muted">(parent)</span> : null}
        </span>
        <span>
          <strong>B</strong> {label(b)}
        </span>
        <span className={diff.outputChanged ? 'verdict is-changed' : 'verdict is-ok'}>{diff.outputChanged ? 'Final output changed' : 'Final output the same'}</span>
        <button type="button" className="button small" data-testid="diff.close" onClick={() => useRunStore.getState().setCompare(null)}>
          Back to boundaries
        </button>
      </div>
      <div className="table-scroll diff-scroll">
        <table className="data-table">
          <thead>
            <tr>
              <th>Step</th>
              <th>Status A → B</th>
              <th>Output</th>
              <th className="num" title="Source facts that survived into this step's output (summed over its boundaries)">Facts kept A → B</th>
              <th className="num">Tokens A → B</th>
              <th className="num">Latency A → B</th>
              <th className="num">Attempts A → B</th>
            </tr>
          </thead>
          <tbody>
            {diff.steps.map((s) => (
              <tr key={s.stepId} data-testid={`diff.step.${s.stepId}`} className={s.outputChanged ? 'is-changed' : ''}>
                <td>
                  <span className="mono">{s.stepId}</span>
                  {names.get(s.stepId) && names.get(s.stepId) !== s.stepId ? <div className="muted small">{names.get(s.stepId)}</div> : null}
                </td>
                <td>{pair(s.statusA, s.statusB)}</td>
                <OutputCell step={s} />
                <td className="num">{pair(num(s.factsSurvivedA), num(s.factsSurvivedB))}</td>
                <td className="num">{pair(formatTokens(s.tokensA), formatTokens(s.tokensB))}</td>
                <td className="num">{pair(num(s.latencyA, formatMs), num(s.latencyB, formatMs))}</td>
                <td className="num">{pair(String(s.attemptsA), String(s.attemptsB))}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
