import { useEffect, useMemo, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useChainDatasets } from '../persistence/chain-datasets.ts';
import { useEditorStore } from '../stores/editor-store.ts';
import { formatCost, formatTokens } from '../ui/format.ts';
import { BaselinePrompt } from './BaselinePrompt.tsx';
import { BatchProgress } from './BatchProgress.tsx';
import { cancelEval, estimate, importDataset, resumeEval, showEval, startEval } from './eval-actions.ts';
import { useEvalStore, type EvalState } from './eval-store.ts';
import { DocLink } from '../ui/DocLink.tsx';

const selectSetup = (s: EvalState) => ({
  datasets: s.datasets, evals: s.evals, picked: s.datasetId, chainIds: s.chainIds, controls: s.controls, concurrency: s.concurrency,
  bill: s.estimate, notes: s.notes, baselines: s.baselines, volume: s.volume, shownId: s.shown?.evalId ?? null,
});
const selectRunningId = (s: EvalState) => s.running?.evalId ?? null;

/** The chosen dataset as its option reads. */
function datasetTitle(datasets: readonly { id: string; name: string; items: number }[], id: string): string | undefined {
  const d = datasets.find((x) => x.id === id);
  return d ? `${d.name} (${d.items} items)` : undefined;
}

/** Dataset, chains and options, the bill before it runs, each baseline's prompt, and Run / Cancel / Resume. */
export function EvalSetup() {
  const library = useEditorStore((s) => s.library);
  const { datasets, evals, picked, chainIds, controls, concurrency, bill, notes, baselines, volume, shownId } = useEvalStore(useShallow(selectSetup));
  // Progress (4 times a second while a batch runs) re-renders BatchProgress alone.
  const runningId = useEvalStore(selectRunningId);
  // The newest dataset until one is picked (or when the picked one is gone).
  const datasetId = datasets.some((d) => d.id === picked) ? picked : datasets[0]?.id ?? '';
  // A chain deleted since it was ticked is not compared.
  const ticked = useMemo(() => chainIds.filter((id) => library.some((c) => c.id === id)), [chainIds, library]);
  const fileInput = useRef<HTMLInputElement>(null);
  const store = useEvalStore.getState;

  useEffect(() => {
    void estimate(datasetId, ticked, controls);
  }, [datasetId, ticked, controls]);
  // The chains ticked are evaluated on this dataset: the designer reads its questions for the
  // conditions each handoff must carry (the contract card, the lint of a summarising step).
  useEffect(() => {
    if (datasetId) useChainDatasets.getState().link(ticked, datasetId);
  }, [datasetId, ticked]);

  const resumable = evals.find((e) => e.status !== 'finished' && e.id !== runningId);
  const totals = useMemo(() => (bill ? bill.reduce((t, e) => ({ calls: t.calls + e.calls, input: t.input + e.inputTokens, output: t.output + e.outputTokensAtMost, cost: e.costUsdAtMost === null || t.cost === null ? null : t.cost + e.costUsdAtMost }), { calls: 0, input: 0, output: 0, cost: 0 as number | null }) : null), [bill]);

  return (
    <div className="eval-setup-block">
      <div className="eval-setup">
        <fieldset className="eval-field">
          <legend>Dataset</legend>
          {/* A long dataset name is cut in the closed select: the hover says it whole. */}
          <select className="small-select" aria-label="Dataset" data-testid="eval.dataset" value={datasetId} title={datasetTitle(datasets, datasetId)} onChange={(e) => store().setDatasetId(e.target.value)}>
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
                  if (id) store().setDatasetId(id);
                  if (fileInput.current) fileInput.current.value = '';
                });
              }}
            />
          </label>
        </fieldset>
        <fieldset className="eval-field eval-chains">
          <legend>Chains to compare</legend>
          {library.map((c) => (
            <label key={c.id} title={c.id}>
              <input type="checkbox" checked={ticked.includes(c.id)} onChange={() => store().toggleChain(c.id)} data-testid={`eval.chain.${c.id}`} />
              {c.name}
            </label>
          ))}
        </fieldset>
        <fieldset className="eval-field">
          <legend>Options</legend>
          <label title="The single-prompt baseline (the chain's meta.baseline when it is one prompt given the inputs whole, else one generated from its prompts), an identity control and an ablation per model stage">
            <input type="checkbox" checked={controls} onChange={(e) => store().setControls(e.target.checked)} data-testid="eval.controls" />
            Add controls (baseline, ablations)
          </label>
          <DocLink page="evaluating" anchor="controls" topic="Controls: the baseline, identity and ablation" />
          <label>
            Runs at once{' '}
            <input type="number" min={1} max={32} value={concurrency} onChange={(e) => store().setConcurrency(Math.max(1, Math.min(32, Number(e.target.value) || 1)))} className="eval-concurrency" aria-label="Runs at once" data-testid="eval.concurrency" />
          </label>
          <label title="How many items a month the design would answer: the spend column is that volume times each variant's tokens per item at the profile's prices">
            Volume a month{' '}
            <input
              type="number" min={0} step={1000} value={volume || ''} placeholder="e.g. 400000" className="eval-volume" aria-label="Volume a month"
              onChange={(e) => {
                const next = Math.max(0, Number(e.target.value) || 0);
                store().setVolume(next);
                if (shownId) void showEval(shownId, next);
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
      {baselines.length > 0 && (
        <div className="eval-baselines" data-testid="eval.baselines">
          {baselines.map((b) => <BaselinePrompt key={b.name} plan={b} />)}
        </div>
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
            <button type="button" className="button primary" disabled={!datasetId || ticked.length === 0} onClick={() => void startEval(datasetId, ticked, controls, concurrency)} data-testid="eval.start">
              Run evaluation
            </button>
            {resumable && (
              <button type="button" className="button small" onClick={() => void resumeEval(resumable.id)} data-testid="eval.resume">
                Resume the unfinished evaluation ({resumable.variants.length} variants)
              </button>
            )}
            {evals.length > 0 && (
              <select className="small-select" aria-label="Show an earlier evaluation" value={shownId ?? ''} onChange={(e) => e.target.value && void showEval(e.target.value)}>
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
    </div>
  );
}
