import type { StoreApi } from 'zustand';
import type { Chain, LintFinding } from '../../src/chain/index.ts';
import { datasetIn, useChainDatasets } from '../persistence/chain-datasets.ts';
import { noAnalysis, type ChainAnalysis } from '../stores/analysis-slice.ts';
import type { EditorState } from '../stores/editor-store.ts';
import { selectChain, stepIdForPath } from '../stores/selectors.ts';
import { isLargeChain, type AnalysisRequest, type AnalysisResponse, type AnalysisResult } from './analysis.ts';
import { analyseNow } from './lint-sync.ts';

/**
 * Keeps the editor store's analysis slice in step with the open chain, as a store
 * subscription (selectors only read the slice). main.tsx loads this module, and with it the
 * checks (lint-sync.ts: validation and lint), after first paint; until it starts, the slice
 * says pending. From then on, on each new chain revision:
 * - a small chain is checked at once, in this thread, in the same update as the edit, so
 *   feedback is instant;
 * - a large chain is checked in a worker after QUIET_MS without edits (handing it over copies
 *   it on this thread, so not on every keystroke); the last results for the same chain show,
 *   marked pending, meanwhile.
 * Results are remembered per revision, so undo back to a checked state is instant.
 */
const QUIET_MS = 300;

type ConditionNeeds = typeof import('./condition-needs.ts');
/** The documents-aware lint, loaded with import() the first time a chain names documents (never on first paint). */
let conditionNeeds: ConditionNeeds | null = null;
const loadConditionNeeds = (): Promise<ConditionNeeds> => import('./condition-needs.ts').then((m) => (conditionNeeds = m));

/**
 * The lint that needs the chain's documents (a summarising step not told to keep the conditions
 * its consumer's questions turn on), added to a sound chain's lint; undefined while the module
 * or the documents are still loading.
 */
function withDocumentLint(chain: Chain, result: AnalysisResult): AnalysisResult | undefined {
  if (!result.lint || chain.meta?.inputFiles === undefined) return result;
  let extra: readonly LintFinding[] | undefined;
  try {
    extra = conditionNeeds?.conditionFindingsNow(chain);
  } catch {
    // A chain mid-edit can be unsound in ways the analysis does not expect: its lint shows without this rule.
    extra = [];
  }
  return extra === undefined ? undefined : { ...result, lint: [...result.lint, ...extra] };
}

/** The slice's value for `chain` from one check's result. */
export function toChainAnalysis(chain: Chain, result: AnalysisResult, pending: boolean): ChainAnalysis {
  const problemCounts = new Map<string, number>();
  for (const p of result.problems) {
    const id = stepIdForPath(chain, p.path);
    if (id) problemCounts.set(id, (problemCounts.get(id) ?? 0) + 1);
  }
  const lintWarningCounts = new Map<string, number>();
  const lintErrorCounts = new Map<string, number>();
  for (const f of result.lint ?? []) {
    if (!f.stepId || f.severity === 'info') continue;
    const map = f.severity === 'error' ? lintErrorCounts : lintWarningCounts;
    map.set(f.stepId, (map.get(f.stepId) ?? 0) + 1);
  }
  return {
    revision: chain, problems: result.problems, lint: result.lint ?? [], unanswered: new Set(result.unanswered),
    problemCounts, lintWarningCounts, lintErrorCounts, pending,
  };
}

/**
 * analyseNow, never throwing: this runs inside the store update of an edit, and an exception
 * would skip the listeners after this one (autosave among them). A check that fails says so
 * as a problem instead.
 */
function checkHere(chain: Chain): AnalysisResult {
  try {
    return analyseNow(chain);
  } catch (error) {
    return { problems: [{ path: '$', message: `could not be checked: ${(error as Error)?.message ?? String(error)}` }], lint: null, unanswered: [] };
  }
}

/** A worker that checks large chains; answers come back in the order they were asked. */
export function createAnalysisWorker(onResult: (chain: Chain, result: AnalysisResult) => void): { check(chain: Chain): void; isChecking(chain: Chain): boolean } {
  let worker: Worker | null = null;
  let nextId = 1;
  const inFlight = new Map<number, Chain>();
  const start = () => {
    const w = new Worker(new URL('./analysis.worker.ts', import.meta.url), { type: 'module', name: 'seamscope-analysis' });
    w.onmessage = (event: MessageEvent<AnalysisResponse>) => {
      const { id, ...result } = event.data;
      const chain = inFlight.get(id);
      inFlight.delete(id);
      if (chain) onResult(chain, result);
    };
    return w;
  };
  return {
    check: (chain) => {
      worker ??= start();
      const id = nextId++;
      inFlight.set(id, chain);
      worker.postMessage({ id, chain } satisfies AnalysisRequest);
    },
    isChecking: (chain) => [...inFlight.values()].includes(chain),
  };
}

/** Starts the subscription (and checks the chain already open); returns its stop. `createWorker` is for tests. */
export function startAnalysis(store: StoreApi<EditorState>, { createWorker = createAnalysisWorker } = {}): () => void {
  const done = new WeakMap<Chain, ChainAnalysis>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let queued: Chain | null = null;
  const open = () => selectChain(store.getState());
  const publish = (analysis: ChainAnalysis) => {
    if (store.getState().analysis !== analysis) store.getState().setAnalysis(analysis);
  };

  const worker = createWorker((chain, result) => {
    const analysis = toChainAnalysis(chain, result, false);
    done.set(chain, analysis);
    const current = open();
    // An earlier revision's answer still beats nothing while the newer one is being checked.
    if (current === chain) publish(analysis);
    else if (current?.id === chain.id && (queued === current || worker.isChecking(current))) publish({ ...analysis, pending: true });
  });

  const send = () => {
    timer = null;
    const chain = queued;
    queued = null;
    if (chain && chain === open() && !done.has(chain)) worker.check(chain);
  };

  /** Shows what is known about `chain` now, and starts whatever check is still missing. */
  const show = (chain: Chain | null) => {
    if (!chain) return publish(noAnalysis);
    const known = done.get(chain);
    if (known) return publish(known);
    if (!isLargeChain(chain)) {
      const result = checkHere(chain);
      const complete = withDocumentLint(chain, result);
      const analysis = toChainAnalysis(chain, complete ?? result, false);
      // Shown now without the documents' lint, which follows once they are loaded (the next show finds them).
      if (complete) done.set(chain, analysis);
      else void loadConditionNeeds().then((m) => m.prepare(chain)).then(() => {
        if (open() === chain && !done.has(chain)) show(chain);
      }).catch(() => undefined);
      return publish(analysis);
    }
    const shown = store.getState().analysis;
    publish(shown.revision?.id === chain.id ? { ...shown, pending: true } : { ...noAnalysis, pending: true });
    if (worker.isChecking(chain)) return;
    queued = chain;
    if (timer) clearTimeout(timer);
    timer = setTimeout(send, QUIET_MS);
  };

  const unsubscribe = store.subscribe((state, prev) => {
    const chain = selectChain(state);
    if (chain !== selectChain(prev)) show(chain);
  });
  // Linking the open chain to another dataset (in the Evaluate view) changes the questions its
  // documents' lint reads: checked again, though the chain did not change.
  const unlink = useChainDatasets.subscribe((state, prev) => {
    const chain = open();
    if (!chain || datasetIn(state.links, chain.id) === datasetIn(prev.links, chain.id)) return;
    done.delete(chain);
    show(chain);
  });
  show(open());
  return () => {
    unsubscribe();
    unlink();
    if (timer) clearTimeout(timer);
  };
}
