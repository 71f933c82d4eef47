import { useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { EvalTable, ItemResult, VariantRow } from '../../src/eval/index.ts';
import { openReplay } from '../runs/run-actions.ts';
import { downloadBlob } from '../ui/download.ts';
import { formatCost, formatMs, formatTokens } from '../ui/format.ts';
import { baselinePlans } from './baseline-plan.ts';
import { BaselinePrompt } from './BaselinePrompt.tsx';
import { EvalDetails } from './EvalDetails.tsx';
import { useEvalStore, type EvalState } from './eval-store.ts';
import { variantLabels } from './variant-labels.ts';
import { calibrationCell, readJudgeCalibrations } from '../runs/judge/judge-calibrations.ts';

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

const download = (name: string, text: string, type: string) => downloadBlob(name, new Blob([text], { type }));

/** A CSV field: quoted, quotes doubled, and a leading = + - @ neutralised so a spreadsheet never runs it as a formula. */
const csvField = (v: unknown) => {
  const text = v === null || v === undefined ? '' : String(v);
  return `"${(/^[=+\-@\t\r]/.test(text) ? `'${text}` : text).replace(/"/g, '""')}"`;
};

function tableCsv(table: EvalTable, labels: Readonly<Record<string, string>>): string {
  const head = ['variant', 'name', 'kind', 'n', 'accuracy', 'stderr', 'ties_with', 'abstained', 'p50_ms', 'p95_ms', 'input_tokens', 'output_tokens', 'calls', 'spend_per_month', 'differs'];
  const rows = table.variants.map((v) => [v.name, labels[v.name] ?? '', v.kind, v.n, v.accuracy, v.stderr, v.tiesWith.join(' '), v.abstained, v.p50Ms, v.p95Ms, v.inputTokens, v.outputTokens, v.calls, v.spendPerMonth ?? '', v.differs ?? '']);
  return [head, ...rows].map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n';
}

const selectResults = (s: EvalState) => ({ shown: s.shown, open: s.openVariant });

/** The shown batch's table (variants by their chains' names), the opened variant's details and items, and the exports. */
export function EvalResults() {
  const { shown, open } = useEvalStore(useShallow(selectResults));
  const labels = useMemo(() => (shown ? variantLabels(shown.variants) : {}), [shown]);
  const baseline = useMemo(() => (shown && open ? baselinePlans(shown.variants.filter((v) => v.name === open), labels)[0] : undefined), [shown, open, labels]);
  if (!shown) return null;
  // Read per render of a shown batch: a judge asked in a replay meanwhile shows up when the table is next drawn.
  const calibrations = readJudgeCalibrations();
  const ordered = [...shown.table.variants].sort((a, b) => b.accuracy - a.accuracy);
  const setOpen = useEvalStore.getState().setOpenVariant;
  const opened = open && shown.table.variants.some((v) => v.name === open) ? open : null;
  return (
    <div className="eval-results">
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
              <th title="The sufficiency judge's agreement with your labels on this chain's runs (Cohen's kappa, n), as last measured from a replay; its calls are not in this table">Judge</th>
            </tr>
          </thead>
          <tbody>
            {ordered.map((v: VariantRow, i) => (
              <tr key={v.name} className={opened === v.name ? 'is-open' : ''} data-testid={`eval.row.${v.name}`}>
                <td>{i + 1}</td>
                <td>
                  <button type="button" className="link-button" title={`${v.name}${v.differs ? `: ${v.differs}` : ''} (show the items and open their runs)`} onClick={() => setOpen(opened === v.name ? null : v.name)}>
                    {labels[v.name] ?? v.name}
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
                <td className="eval-judge" data-testid={`eval.judge.${v.name}`} title={calibrationCell(calibrations[v.chainId]).title}>{calibrationCell(calibrations[v.chainId]).text}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="muted small">{shown.table.tieRule}.</p>
      {opened && baseline && <BaselinePrompt plan={baseline} />}
      {opened && <EvalDetails evalId={shown.evalId} table={shown.table} variant={opened} results={shown.results.filter((r) => r.variant === opened)} />}
      {opened && (
        <ItemList
          results={shown.results.filter((r) => r.variant === opened)}
          onOpen={(runId) => {
            // The replay is the designer's: the view steps aside, keeping everything as it is.
            useEvalStore.getState().setViewOpen(false);
            void openReplay(runId);
          }}
        />
      )}
      <div className="eval-exports">
        <button type="button" className="button small" onClick={() => download(`${shown.evalId}.csv`, tableCsv(shown.table, labels), 'text/csv')} data-testid="eval.exportCsv">
          Export CSV
        </button>
        <button type="button" className="button small" onClick={() => download(`${shown.evalId}.json`, `${JSON.stringify({ format: 'seamscope.eval', version: 1, ...shown.table }, null, 2)}\n`, 'application/json')} data-testid="eval.exportJson">
          Export JSON
        </button>
      </div>
    </div>
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
