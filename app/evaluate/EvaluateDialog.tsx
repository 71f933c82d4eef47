import { useEffect, useMemo, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { EvalTable, ItemResult, VariantRow } from '../../src/eval/index.ts';
import { openReplay } from '../runs/run-actions.ts';
import { useEditorStore } from '../stores/editor-store.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { downloadBlob } from '../ui/download.ts';
import { formatCost, formatMs, formatTokens } from '../ui/format.ts';
import { cancelEval, estimate, importDataset, refreshEvalLists, resumeEval, showEval, startEval } from './eval-actions.ts';
import { EvalDetails } from './EvalDetails.tsx';
import { useEvalStore, type EvalState } from './eval-store.ts';

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

const download = (name: string, text: string, type: string) => downloadBlob(name, new Blob([text], { type }));

/** A CSV field: quoted, quotes doubled, and a leading = + - @ neutralised so a spreadsheet never runs it as a formula. */
const csvField = (v: unknown) => {
  const text = v === null || v === undefined ? '' : String(v);
  return `"${(/^[=+\-@\t\r]/.test(text) ? `'${text}` : text).replace(/"/g, '""')}"`;
};

function tableCsv(table: EvalTable): string {
  const head = ['variant', 'kind', 'n', 'accuracy', 'stderr', 'ties_with', 'abstained', 'p50_ms', 'p95_ms', 'input_tokens', 'output_tokens', 'calls', 'spend_per_month', 'differs'];
  const rows = table.variants.map((v) => [v.name, v.kind, v.n, v.accuracy, v.stderr, v.tiesWith.join(' '), v.abstained, v.p50Ms, v.p95Ms, v.inputTokens, v.outputTokens, v.calls, v.spendPerMonth ?? '', v.differs ?? '']);
  return [head, ...rows].map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/**
 * Evaluate: compare designs over one dataset. Pick a stored dataset (or import a
 * `.dataset.jsonl`), tick the chains, optionally their controls, see the estimated bill, run,
 * and read one table; a row opens its items, and an item its run in the replay view.
 */
export default function EvaluateDialog({ onClose }: { onClose(): void }) {
  const library = useEditorStore((s) => s.library);
  // Progress (4 times a second while a batch runs) re-renders BatchProgress alone, not the table.
  const { datasets, evals, estimate: bill, shown, volume, notes } = useEvalStore(useShallow(selectDialog));
  const runningId = useEvalStore(selectRunningId);
  const [picked, setDatasetId] = useState<string>('');
  // The newest dataset until one is picked.
  const datasetId = picked || datasets[0]?.id || '';
  const [chainIds, setChainIds] = useState<string[]>([]);
  const [controls, setControls] = useState(false);
  const [concurrency, setConcurrency] = useState(4);
  const [open, setOpen] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    // Reopened (after a reload too), the view shows the latest batch's table rather than nothing.
    void refreshEvalLists().then(() => {
      const { shown: current, evals: stored } = useEvalStore.getState();
      if (!current && stored[0]) void showEval(stored[0].id);
    });
  }, []);
  useEffect(() => {
    if (datasetId && chainIds.length) void estimate(datasetId, chainIds, controls);
    else useEvalStore.getState().setEstimate(null);
  }, [datasetId, chainIds, controls]);

  const resumable = evals.find((e) => e.status !== 'finished' && e.id !== runningId);
  const totals = useMemo(() => (bill ? bill.reduce((t, e) => ({ calls: t.calls + e.calls, input: t.input + e.inputTokens, output: t.output + e.outputTokensAtMost, cost: e.costUsdAtMost === null || t.cost === null ? null : t.cost + e.costUsdAtMost }), { calls: 0, input: 0, output: 0, cost: 0 as number | null }) : null), [bill]);
  const toggle = (id: string) => setChainIds((ids) => (ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id]));
  const ordered = shown ? [...shown.table.variants].sort((a, b) => b.accuracy - a.accuracy) : [];

  return (
    <Dialog title="Evaluate designs" testId="eval.dialog" onClose={onClose} wide>
      <div className="eval-setup">
        <fieldset className="eval-field">
          <legend>Dataset</legend>
          <select className="small-select" aria-label="Dataset" data-testid="eval.dataset" value={datasetId} onChange={(e) => setDatasetId(e.target.value)}>
            {datasets.length === 0 && <option value="">No dataset yet: import one</option>}
            {datasets.map((d) => (
              <option key={d.id} value={d.id}>
                {d.name} ({d.items} items)
              </option>
            ))}
          </select>
          <label className="button small">
            Import dataset…
            <input
              ref={fileInput}
              type="file"
              accept=".jsonl,.ndjson,.csv,application/x-ndjson,text/csv"
              className="visually-hidden"
              data-testid="eval.import"
              onChange={(e) => {
                const file = e.target.files?.[0];
                if (!file) return;
                void importDataset(file).then((id) => {
                  if (id) setDatasetId(id);
                  if (fileInput.current) fileInput.current.value = '';
                });
              }}
            />
          </label>
        </fieldset>
        <fieldset className="eval-field eval-chains">
          <legend>Chains to compare</legend>
          {library.map((c) => (
            <label key={c.id}>
              <input type="checkbox" checked={chainIds.includes(c.id)} onChange={() => toggle(c.id)} data-testid={`eval.chain.${c.id}`} />
              {c.name}
            </label>
          ))}
        </fieldset>
        <fieldset className="eval-field">
          <legend>Options</legend>
          <label title="The single-prompt baseline (the chain's meta.baseline, else one generated from its prompts) and an ablation per model stage">
            <input type="checkbox" checked={controls} onChange={(e) => setControls(e.target.checked)} data-testid="eval.controls" />
            Add controls (baseline, ablations)
          </label>
          <label>
            At once{' '}
            <input type="number" min={1} max={32} value={concurrency} onChange={(e) => setConcurrency(Math.max(1, Math.min(32, Number(e.target.value) || 1)))} className="eval-concurrency" aria-label="Runs at once" />
          </label>
          <label title="How many items a month the design would answer: the spend column is that volume times each variant's tokens per item at the profile's prices">
            Volume a month{' '}
            <input
              type="number" min={0} step={1000} value={volume || ''} placeholder="e.g. 400000" className="eval-volume" aria-label="Volume a month"
              onChange={(e) => {
                const next = Math.max(0, Number(e.target.value) || 0);
                useEvalStore.getState().setVolume(next);
                if (shown) void showEval(shown.evalId, next);
              }}
            />
          </label>
        </fieldset>
      </div>
      {totals && (
        <p className="eval-estimate" data-testid="eval.estimate">
          Before it runs: {bill?.length} variant{bill?.length === 1 ? '' : 's'}, {totals.calls.toLocaleString('en-US')} model calls, {formatTokens(totals.input)} input tokens, at most {formatTokens(totals.output)} output tokens
          {totals.cost === null ? ' (the profile has no prices: cost unknown)' : `, at most ${formatCost(totals.cost)}`}. Retries add at most one call each.
        </p>
      )}
      {notes.length > 0 && (
        <ul className="eval-notes muted small" data-testid="eval.notes">
          {notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
      <div className="eval-actions">
        {runningId ? (
          <>
            <BatchProgress />
            <button type="button" className="button small danger" onClick={cancelEval} data-testid="eval.cancel">
              Cancel
            </button>
          </>
        ) : (
          <>
            <button type="button" className="button primary" disabled={!datasetId || chainIds.length === 0} onClick={() => void startEval(datasetId, chainIds, controls, concurrency)} data-testid="eval.start">
              Run evaluation
            </button>
            {resumable && (
              <button type="button" className="button small" onClick={() => void resumeEval(resumable.id)} data-testid="eval.resume">
                Resume the unfinished evaluation ({resumable.variants.length} variants)
              </button>
            )}
            {evals.length > 0 && (
              <select className="small-select" aria-label="Show an earlier evaluation" value={shown?.evalId ?? ''} onChange={(e) => e.target.value && void showEval(e.target.value)}>
                <option value="">Earlier evaluations…</option>
                {evals.map((e) => (
                  <option key={e.id} value={e.id}>
                    {new Date(e.startedAt).toLocaleString()} · {e.variants.length} variants · {e.status}
                  </option>
                ))}
              </select>
            )}
          </>
        )}
      </div>
      {shown && (
        <>
          <div className="table-scroll">
            <table className="data-table eval-table" data-testid="eval.table">
              <thead>
                <tr>
                  <th>#</th>
                  <th>Variant</th>
                  <th>Kind</th>
                  <th className="num">n</th>
                  <th className="num">Accuracy</th>
                  <th className="num">± se</th>
                  <th title={shown.table.tieRule}>Tie with</th>
                  <th className="num">Abstained</th>
                  <th className="num">p50</th>
                  <th className="num">p95</th>
                  <th className="num">In tok</th>
                  <th className="num">Out tok</th>
                  <th className="num">Calls</th>
                  <th className="num" title="At the profile's prices; the multiplication is in each cell's tooltip">Spend / month</th>
                </tr>
              </thead>
              <tbody>
                {ordered.map((v: VariantRow, i) => (
                  <tr key={v.name} className={open === v.name ? 'is-open' : ''} data-testid={`eval.row.${v.name}`}>
                    <td>{i + 1}</td>
                    <td>
                      <button type="button" className="link-button" title={`${v.name}${v.differs ? `: ${v.differs}` : ""} (show the items and open their runs)`} onClick={() => setOpen(open === v.name ? null : v.name)}>
                        {v.name}
                      </button>
                    </td>
                    <td>{v.kind}</td>
                    <td className="num">{v.n}</td>
                    <td className="num">{pct(v.accuracy)}</td>
                    <td className="num">{pct(v.stderr)}</td>
                    <td>{v.tiesWith.map((t) => `#${ordered.findIndex((o) => o.name === t) + 1}`).join(' ') || '–'}</td>
                    <td className="num">{pct(v.abstained)}</td>
                    <td className="num">{formatMs(v.p50Ms)}</td>
                    <td className="num">{formatMs(v.p95Ms)}</td>
                    <td className="num">{formatTokens(Math.round(v.inputTokens))}</td>
                    <td className="num">{formatTokens(Math.round(v.outputTokens))}</td>
                    <td className="num">{v.calls.toFixed(1)}</td>
                    <td className="num" title={v.spendFormula}>{v.spendPerMonth === null ? '–' : formatCost(v.spendPerMonth)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p className="muted small">{shown.table.tieRule}.</p>
          {open && <EvalDetails evalId={shown.evalId} table={shown.table} variant={open} results={shown.results.filter((r) => r.variant === open)} />}
          {open && <ItemList results={shown.results.filter((r) => r.variant === open)} onOpen={(runId) => { onClose(); void openReplay(runId); }} />}
          <div className="eval-exports">
            <button type="button" className="button small" onClick={() => download(`${shown.evalId}.csv`, tableCsv(shown.table), 'text/csv')} data-testid="eval.exportCsv">
              Export CSV
            </button>
            <button type="button" className="button small" onClick={() => download(`${shown.evalId}.json`, `${JSON.stringify({ format: 'seamscope.eval', version: 1, ...shown.table }, null, 2)}\n`, 'application/json')} data-testid="eval.exportJson">
              Export JSON
            </button>
          </div>
        </>
      )}
    </Dialog>
  );
}

const selectDialog = (s: EvalState) => ({ datasets: s.datasets, evals: s.evals, estimate: s.estimate, shown: s.shown, volume: s.volume, notes: s.notes });
const selectRunningId = (s: EvalState) => s.running?.evalId ?? null;
const selectProgress = (s: EvalState) => s.running?.progress ?? null;

function BatchProgress() {
  const progress = useEvalStore(selectProgress);
  if (!progress) return null;
  return (
    <>
      <progress max={progress.total} value={progress.done} aria-label="Evaluation progress" data-testid="eval.progress" />
      <span data-testid="eval.progressText">
        {progress.done} / {progress.total} done{progress.failed ? ` · ${progress.failed} failed` : ''}
        {progress.etaMs !== null && progress.done < progress.total ? ` · about ${Math.ceil(progress.etaMs / 1000)} s left` : ''}
      </span>
    </>
  );
}

function ItemList({ results, onOpen }: { results: readonly ItemResult[]; onOpen(runId: string): void }) {
  const sorted = [...results].sort((a, b) => Number(a.pass) - Number(b.pass) || a.itemId.localeCompare(b.itemId));
  return (
    <ul className="eval-items" data-testid="eval.items">
      {sorted.map((r) => (
        <li key={r.itemId} className={r.pass ? 'is-pass' : 'is-fail'}>
          <span className="eval-item-verdict">{r.pass ? 'pass' : r.status === 'failed' ? 'failed' : 'wrong'}</span>
          <span className="mono">{r.itemId}</span>
          <span className="muted">{r.scores.map((s) => s.detail).join('; ')}</span>
          <button type="button" className="link-button" onClick={() => onOpen(r.runId)} data-testid={`eval.openRun.${r.itemId}`}>
            Open run
          </button>
        </li>
      ))}
    </ul>
  );
}
