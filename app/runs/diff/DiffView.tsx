import type { StepDiff } from '../../../src/inspect/index.ts';
import type { ReplayState } from '../../stores/run-store.ts';
import { useRunStore } from '../../stores/run-store.ts';
import { asText, formatMs, formatTime, formatTokens } from '../../ui/format.ts';
import { stepLabel } from '../../../src/trace/index.ts';
import { diffWordsOf, type WordSpan } from './word-diff.ts';

type Compare = NonNullable<ReplayState['compare']>;

const pair = (a: string, b: string) => (a === b ? <span>{a}</span> : <span className="diff-changed">{a} → {b}</span>);
const num = (n: number | null, f: (n: number) => string = String) => (n === null ? '—' : f(n));

/** One side's text with its changed words marked (removed on A's side, added on B's). */
function Marked({ spans }: { spans: WordSpan[] }) {
  return spans.map((s, i) =>
    s.kind === 'removed' ? (
      <del key={i} className="word-removed">{s.text}</del>
    ) : s.kind === 'added' ? (
      <ins key={i} className="word-added">{s.text}</ins>
    ) : (
      s.text
    ),
  );
}

function OutputCell({ step }: { step: StepDiff }) {
  if (!step.outputChanged) return <td className="muted small">same</td>;
  const a = asText(step.outputA);
  const b = asText(step.outputB);
  const words = diffWordsOf(a, b);
  return (
    <td className="diff-output-cell">
      <div className="diff-outputs">
        <div>
          <div className="muted small">A{words.aligned ? ', removed words struck' : ''}</div>
          <pre className="text-block diff-output" data-testid="diff.outputA">{a ? <Marked spans={words.a} /> : '(none)'}</pre>
        </div>
        <div>
          <div className="muted small">B{words.aligned ? ', added words marked' : ''}</div>
          <pre className="text-block diff-output" data-testid="diff.outputB">{b ? <Marked spans={words.b} /> : '(none)'}</pre>
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
              <th className="diff-step">Step</th>
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
                <td className="diff-step" title={stepLabel(s.stepId, names.get(s.stepId))}>
                  <div className="diff-step-name">{names.get(s.stepId) ?? s.stepId}</div>
                  {names.get(s.stepId) && names.get(s.stepId) !== s.stepId ? <div className="diff-step-id mono muted small">{s.stepId}</div> : null}
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
