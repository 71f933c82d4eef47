import { useEffect, useMemo, useState } from 'react';
import { estimateCompounding } from '../../src/chain/index.ts';
import type { Chain } from '../../src/chain/index.ts';
import { useEditorStore } from '../stores/editor-store.ts';
import { useRunStore } from '../stores/run-store.ts';
import { selectMetrics } from '../stores/selectors.ts';
import { loadLossCounts } from '../runs/metrics/loss-actions.ts';
import { defaultRates, type LossCounts, type RateRow } from './compounding-rates.ts';
import { DocLink } from '../ui/DocLink.tsx';

type Field = 'errorRate' | 'catchRate' | 'retrySuccess' | 'uncaughtRate';
type Overrides = Record<string, Partial<Record<Field, number>>>;

const pct = (x: number) => `${(x * 100).toFixed(1).replace(/\.0$/, '')}%`;

function RateInput({ value, label, onChange }: { value: number; label: string; onChange(v: number): void }) {
  const [text, setText] = useState(String(Math.round(value * 1000) / 10));
  return (
    <input
      className="input rate-input"
      type="number"
      min={0}
      max={100}
      step={0.5}
      aria-label={label}
      value={text}
      onChange={(e) => {
        setText(e.target.value);
        const n = Number(e.target.value);
        if (e.target.value.trim() !== '' && Number.isFinite(n) && n >= 0 && n <= 100) onChange(n / 100);
      }}
    />
  );
}

/**
 * The compounding arithmetic for this chain: a chain is right only when every step is; gates and a
 * retry shrink what slips through. Rates come from stored runs where there are any (validation
 * failures, failed steps, and handoffs the boundary inspector found lossy), else from stated
 * assumptions, and every one can be changed here (not saved with the chain). The lossy counts
 * are read again whenever the chain's metrics change (a run finished, one was deleted).
 */
export function CompoundingPanel({ chain }: { chain: Chain }) {
  const metrics = useRunStore(selectMetrics);
  const close = () => useEditorStore.getState().setCompoundingOpen(false);
  const [overrides, setOverrides] = useState<Overrides>({});
  const byStep = metrics?.chainId === chain.id ? metrics.byStep : undefined;
  const [losses, setLosses] = useState<{ chainId: string; counts: LossCounts } | null>(null);
  useEffect(() => {
    let live = true;
    loadLossCounts(chain.id)
      .then((counts) => live && setLosses({ chainId: chain.id, counts }))
      .catch(() => live && setLosses(null));
    return () => {
      live = false;
    };
  }, [chain.id, byStep]);
  const lossFor = losses?.chainId === chain.id ? losses.counts : undefined;
  const defaults = useMemo(() => defaultRates(chain, byStep, undefined, lossFor), [chain, byStep, lossFor]);
  const rows: RateRow[] = defaults.map((r) => ({ ...r, ...overrides[r.stepId] }));
  const estimate = estimateCompounding(rows);
  const set = (stepId: string, field: Field, v: number) => setOverrides((o) => ({ ...o, [stepId]: { ...o[stepId], [field]: v } }));

  return (
    // Esc inside the panel (its rate boxes keep their own keys otherwise) closes it, as Esc on the canvas does.
    <section
      className="compounding"
      data-testid="compounding"
      aria-label="Compounding estimate"
      onKeyDown={(e) => {
        if (e.key !== 'Escape') return;
        e.preventDefault();
        close();
      }}
    >
      <header className="compounding-head">
        <h2>Error compounding</h2>
        <DocLink page="concepts" anchor="compounding" topic="Error compounding" />
        <button type="button" className="icon-button" aria-label="Close" onClick={close}>×</button>
      </header>
      {rows.length === 0 ? (
        <p className="muted small">No model steps: nothing here can be wrong in the way step-by-step compounding counts.</p>
      ) : (
        <>
          <div className="compounding-result">
            <div>
              <span className="muted small">Unchecked</span>
              <strong data-testid="compounding.ungated">{pct(estimate.ungated)}</strong>
            </div>
            <div>
              <span className="muted small">With gates and one retry</span>
              <strong data-testid="compounding.gated">{pct(estimate.gated)}</strong>
            </div>
          </div>
          <p className="compounding-math mono" data-testid="compounding.explanation">{estimate.explanation}</p>
          <table className="compounding-table">
            <thead>
              <tr>
                <th>Step</th>
                <th title="Probability the step's output is wrong">Error %</th>
                <th title="Share of errors a check catches">Caught %</th>
                <th title="Probability the retry after a caught error succeeds">Retry ok %</th>
                <th title="Errors no check sees: share of stored runs in which this step's handoff was lossy (well-formed, missing the facts asked for)">Lossy %</th>
                <th>Slips</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r, i) => (
                <tr key={r.stepId} data-testid={`compounding.row.${r.stepId}`}>
                  <td>
                    <div className="compounding-step">{r.name}</div>
                    <div className="muted tiny">
                      {r.errorSource === 'observed' ? `observed over ${r.attempts} attempts` : 'assumed'}
                      {r.failureRate > 0 ? ` · failed in ${pct(r.failureRate)} of runs` : ''}
                      {r.checkedBy.length ? ` · checked by ${r.checkedBy.join(', ')}` : ' · unchecked'}
                    </div>
                    {r.handoffs.lossy > 0 && (
                      <div className="tiny compounding-lossy" data-testid={`compounding.lossy.${r.stepId}`}>
                        handoff lossy in {r.handoffs.lossy} of {r.handoffs.runs} stored runs
                      </div>
                    )}
                  </td>
                  <td><RateInput key={`e${defaults[i]?.errorRate}`} label={`${r.stepId} error rate`} value={r.errorRate} onChange={(v) => set(r.stepId, 'errorRate', v)} /></td>
                  <td><RateInput key={`c${defaults[i]?.catchRate}`} label={`${r.stepId} catch rate`} value={r.catchRate} onChange={(v) => set(r.stepId, 'catchRate', v)} /></td>
                  <td><RateInput key={`r${defaults[i]?.retrySuccess}`} label={`${r.stepId} retry success`} value={r.retrySuccess} onChange={(v) => set(r.stepId, 'retrySuccess', v)} /></td>
                  <td><RateInput key={`u${defaults[i]?.uncaughtRate}`} label={`${r.stepId} lossy rate`} value={r.uncaughtRate ?? 0} onChange={(v) => set(r.stepId, 'uncaughtRate', v)} /></td>
                  <td className="mono tiny" title={estimate.perStep[i]?.formula}>{pct(estimate.perStep[i]?.slip ?? 0)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="muted tiny">
            Per step, slip = 1 − (1 − e·(1−c) − e·c·(1−r))·(1 − u), u the lossy share no check sees. Assumed when no run has been stored: 5% error, 0% lossy; a gate catches 80%, a schema alone 30%; a retry succeeds 95%.
            {Object.keys(overrides).length > 0 && (
              <button type="button" className="link-button" onClick={() => setOverrides({})}> Reset</button>
            )}
          </p>
        </>
      )}
    </section>
  );
}
