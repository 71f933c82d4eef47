import { useEffect, useMemo, useState } from 'react';
import type { Chain, StepDef } from '../../src/chain/index.ts';
import { jobFromChain, planJob, type Granularity, type Plan } from '../../src/planner/index.ts';
import { loadTokenCounter } from '../../src/providers/index.ts';
import { stepRegistry } from '../../src/steps/index.ts';
import { loadInputFiles } from '../persistence/chains.ts';
import { defaultInputText, inputValues } from '../runs/run-inputs.ts';
import { useEditorStore } from '../stores/editor-store.ts';
import { selectActiveProfile } from '../stores/selectors.ts';
import './planner.css';

/**
 * The decomposition planner on a split step's panel (how many groups an output-bound job should make): one column per granularity, the
 * recommended one marked, and why. It reads the same inputs the Run dialog starts with (the demo
 * files, else the examples), so it plans the document the chain is bound to, before any call.
 */
interface Sources {
  chainId: string;
  inputs: Record<string, unknown>;
  countTokens: (text: string) => number;
}

/** The chain's default inputs and the tokenizer, loaded once per chain (edits to the steps reuse them). */
function useSources(chain: Chain): Sources | null {
  const [sources, setSources] = useState<Sources | null>(null);
  const inputsKey = JSON.stringify([chain.meta?.inputFiles ?? null, chain.inputs]);
  useEffect(() => {
    let live = true;
    void Promise.all([loadInputFiles(chain).catch(() => ({}) as Record<string, string>), loadTokenCounter()]).then(([files, countTokens]) => {
      const texts = Object.fromEntries(chain.inputs.map((i) => [i.name, defaultInputText(i, files)]));
      if (live) setSources({ chainId: chain.id, inputs: inputValues(chain, texts), countTokens });
    });
    return () => {
      live = false;
    };
    // Only a different chain, its inputs or its bound files change what is read; step edits do not.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [chain.id, inputsKey]);
  return sources?.chainId === chain.id ? sources : null;
}

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const secs = (s: number | null) => (s === null ? '—' : s < 600 ? `${Math.round(s)} s` : `${(s / 60).toFixed(1)} min`);

interface Row {
  label: string;
  value(g: Granularity): string;
  bad?(g: Granularity): boolean;
}

function rowsFor(plan: Plan, priced: boolean): Row[] {
  return [
    { label: 'Seams', value: (g) => int(g.seams) },
    { label: 'Shared sent', value: (g) => int(g.duplicatedSharedTokens) },
    // A lone clause too big to share a group is in the warnings; this is the rewrite the grouping sized.
    { label: 'Largest rewrite', value: (g) => int(g.plannedOutputTokensPerGroup), bad: (g) => !g.withinHeadroom },
    { label: 'Input per call', value: (g) => int(g.inputTokensPerCall), bad: (g) => !g.fitsWindow },
    { label: 'Total input', value: (g) => int(g.totalInputTokens) },
    ...(priced ? [{ label: 'Cost', value: (g: Granularity) => `$${g.costUsd.toFixed(2)}` }, { label: 'Cost, two-pass', value: (g: Granularity) => `$${g.twoPassCostUsd.toFixed(2)}` }] : []),
    { label: 'Some call fails', value: (g) => `${(g.failureProbability * 100).toFixed(1)}%` },
    { label: 'Parallel', value: (g) => secs(g.wallClock.parallelS) },
    { label: 'Sequential', value: (g) => secs(g.wallClock.sequentialS) + (g.sequentialPassesWindowAtCall ? ` ✗${g.sequentialPassesWindowAtCall}` : '') },
    { label: 'Map-reduce', value: (g) => secs(g.wallClock.hierarchicalS) },
    { label: 'Two-pass', value: (g) => secs(g.wallClock.twoPassS) },
    { label: 'Units per retry', value: (g) => `≤${g.largestGroupUnits}` },
  ];
}

function PlanTable({ plan, priced }: { plan: Plan; priced: boolean }) {
  const columns = plan.granularities;
  return (
    <table className="data-table planner-table" data-testid="planner.table">
      <thead>
        <tr>
          <th scope="col">Groups</th>
          {columns.map((g) => (
            <th key={g.groups} scope="col" className={g.groups === plan.recommended ? 'num is-recommended' : 'num'} data-testid={`planner.col.${g.groups}`}>
              {g.groups}
              {g.groups === plan.recommended && <span className="planner-badge" data-testid="planner.recommended"> ★</span>}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rowsFor(plan, priced).map((row) => (
          <tr key={row.label}>
            <th scope="row">{row.label}</th>
            {columns.map((g) => (
              <td key={g.groups} className={['num', g.groups === plan.recommended ? 'is-recommended' : '', row.bad?.(g) ? 'is-bad' : ''].filter(Boolean).join(' ')}>
                {row.value(g)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export default function PlannerSection({ chain, step }: { chain: Chain; step: StepDef }) {
  const profile = useEditorStore(selectActiveProfile);
  const sources = useSources(chain);
  // Recomputed on every edit of the chain (cap, window, headroom): a few milliseconds of arithmetic.
  const result = useMemo(() => {
    if (!sources || !profile) return null;
    const built = jobFromChain(chain, stepRegistry, { stepId: step.id, inputs: sources.inputs, countTokens: sources.countTokens, profile });
    return built.ok ? { job: built.job, plan: planJob(built.job), splitGroups: built.splitGroups } : { problem: built.problem };
  }, [chain, step.id, sources, profile]);

  const chosen = typeof step.config.groups === 'number' ? step.config.groups : 0;
  const updateStepConfig = useEditorStore((st) => st.updateStepConfig);

  return (
    <section className="planner" data-testid="planner" aria-labelledby="planner-title">
      <h3 id="planner-title" className="planner-title">How many groups</h3>
      {!result ? (
        <p className="muted small">Counting the bound document…</p>
      ) : 'problem' in result ? (
        <p className="muted small" data-testid="planner.problem">The planner needs the units bound to an input with a value: {result.problem}.</p>
      ) : (
        <>
          <p className="muted small">
            {int(result.plan.units)} units, {int(result.plan.sourceTokens)} tokens, {int(result.job.sharedTokens)} shared per call; cap {int(result.job.writer.cap)} (plan for {Math.round(result.job.headroom * 100)}%), window {int(result.job.writer.window)}.
          </p>
          <div className="table-scroll">
            <PlanTable plan={result.plan} priced={result.job.writer.prices.input + result.job.writer.prices.output > 0} />
          </div>
          <p className="small" data-testid="planner.why">
            <strong>{result.plan.recommended ? `${result.plan.recommended} ★` : 'No grouping fits'}</strong> — {result.plan.why}
          </p>
          <p className="muted small" data-testid="planner.configured">
            {chosen > 0
              ? `As configured, this step makes ${result.splitGroups} groups, balanced by tokens.`
              : `As configured, this step makes ${result.splitGroups} groups: it fills each group up to its limits, where the planner balances them.`}
          </p>
          <div className="planner-use" role="group" aria-label="Groups the step makes">
            <span className="small">Make</span>
            {result.plan.granularities.map((g) => (
              <button
                key={g.groups} type="button" className="button small" aria-pressed={chosen === g.groups} data-testid={`planner.use.${g.groups}`}
                onClick={() => updateStepConfig(step.id, 'groups', g.groups)}
              >
                {g.groups} groups
              </button>
            ))}
            <button type="button" className="button small" aria-pressed={chosen === 0} data-testid="planner.use.cap" onClick={() => updateStepConfig(step.id, 'groups', 0)}>
              as many as the cap needs
            </button>
          </div>
          {result.plan.warnings.map((w) => (
            <p key={w} className="small planner-warning" data-testid="planner.warning">{w}</p>
          ))}
          <p className="muted small">
            Wall clock at {result.job.writer.tokensPerSecond} tokens/s, {(result.job.failRate * 100).toFixed(1)}% failure per call (assumed figures, not measured); ✗n: sequential carryover passes the window at call n. Red: over the cap’s headroom or the window.
            {result.job.writer.prices.input + result.job.writer.prices.output > 0 ? '' : ' The profile has no prices, so cost is not shown.'}
          </p>
        </>
      )}
    </section>
  );
}
