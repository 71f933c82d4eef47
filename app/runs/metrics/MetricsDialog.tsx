import type { StepMetrics } from '../../../src/inspect/index.ts';
import { useEditorStore } from '../../stores/editor-store.ts';
import { useRunStore } from '../../stores/run-store.ts';
import { selectChain, selectMetrics } from '../../stores/selectors.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import { formatCost, formatMs, formatTokens } from '../../ui/format.ts';

const pct = (rate: number) => `${Math.round(rate * 100)}%`;

/** A rate cell; a failure rate above zero reads red. */
function Rate({ rate, bad }: { rate: number; bad?: boolean }) {
  return <td className={rate > 0 && bad ? 'num is-bad' : 'num'}>{pct(rate)}</td>;
}

/**
 * Per-step metrics across the chain's stored runs (measure each step, not only the
 * chain's end result). Steps in chain order; steps that never ran are left out.
 */
export default function MetricsDialog({ chainId, onClose }: { chainId: string; onClose(): void }) {
  const chain = useEditorStore(selectChain);
  const metrics = useRunStore(selectMetrics);
  const byStep = metrics?.chainId === chainId ? metrics.byStep : null;
  const rows: { id: string; name: string; m: StepMetrics }[] = [];
  for (const step of chain?.steps ?? []) {
    const m = byStep?.get(step.id);
    if (m) rows.push({ id: step.id, name: step.name || step.id, m });
  }
  return (
    <Dialog title="Per-step metrics" testId="metrics.dialog" onClose={onClose} wide>
      {!byStep ? (
        <p className="muted">Reading the stored runs…</p>
      ) : (
        <>
          <p className="muted small">
            Across the {metrics?.runs} most recent finished run{metrics?.runs === 1 ? '' : 's'} of this chain. Validation failures are per attempt; retries, abstentions and
            escalations per run of the step.
          </p>
          <div className="table-scroll">
            <table className="data-table metrics-table" data-testid="metrics">
              <thead>
                <tr>
                  <th>Step</th>
                  <th className="num">Runs</th>
                  <th className="num">Attempts</th>
                  <th className="num" title="Attempts that came back malformed: invalid JSON, schema violation, truncated, refused">Validation failures</th>
                  <th className="num">Retried</th>
                  <th className="num">Abstained</th>
                  <th className="num">Escalated</th>
                  <th className="num">Failed</th>
                  <th className="num">p50</th>
                  <th className="num">p95</th>
                  <th className="num">Tokens in</th>
                  <th className="num">Tokens out</th>
                  <th className="num">Cost</th>
                </tr>
              </thead>
              <tbody>
                {rows.map(({ id, name, m }) => (
                  <tr key={id} data-testid={`metrics.step.${id}`}>
                    <td>
                      <span className="mono">{id}</span> <span className="muted small">{name !== id ? name : ''}</span>
                    </td>
                    <td className="num">{m.runs}</td>
                    <td className="num">{m.attempts}</td>
                    <Rate rate={m.validationFailureRate} bad />
                    <Rate rate={m.retryRate} bad />
                    <Rate rate={m.abstainRate} bad />
                    <Rate rate={m.escalateRate} bad />
                    <Rate rate={m.failureRate} bad />
                    <td className="num">{formatMs(m.latencyP50)}</td>
                    <td className="num">{formatMs(m.latencyP95)}</td>
                    <td className="num">{formatTokens(m.inputTokens)}</td>
                    <td className="num">{formatTokens(m.outputTokens)}</td>
                    <td className="num">{formatCost(m.costUsd)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {rows.length === 0 && <p className="muted small">No step of this chain has run yet.</p>}
        </>
      )}
    </Dialog>
  );
}
