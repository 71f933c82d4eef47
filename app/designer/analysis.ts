import type { LintFinding } from '../../src/chain/lint.ts';
import type { ChainProblem } from '../../src/chain/parse.ts';
import type { Chain } from '../../src/chain/schema.ts';

/**
 * The checks behind Problems, the design lint and the boundary markers, and where they run.
 * Small chains are checked in the main thread by a module loaded after first paint
 * (lint-sync.ts: validation brings the JSON Schema checker along, which drawing a chain does
 * not need); above LIVE_ANALYSIS_MAX_STEPS the check runs in a worker (lint of 3,000 steps
 * takes ~0.4 s). Nothing here touches a store: app/designer/analysis-subscriber.ts decides
 * when to check and writes the results into the editor store's analysis slice.
 */
export const LIVE_ANALYSIS_MAX_STEPS = 80;

export const isLargeChain = (chain: Chain) => chain.steps.length > LIVE_ANALYSIS_MAX_STEPS;

/** What one check of one chain revision found. */
export interface AnalysisResult {
  problems: readonly ChainProblem[];
  /** Null when the chain has problems (lint needs a sound chain). */
  lint: readonly LintFinding[] | null;
  unanswered: readonly string[];
}

export interface AnalysisRequest {
  id: number;
  chain: Chain;
}

export type AnalysisResponse = AnalysisResult & { id: number };

type CheckModule = typeof import('./lint-sync.ts');
let checks: CheckModule | null = null;
let loading: Promise<CheckModule> | null = null;

/** The check module if it has loaded, else null (and nothing is started). */
export function checkModuleNow(): CheckModule | null {
  return checks;
}

/** Loads the check module once (a dynamic import: it stays off the first paint). */
export function loadCheckModule(): Promise<CheckModule> {
  loading ??= import('./lint-sync.ts').then((m) => (checks = m));
  return loading;
}

/**
 * parseChain's problems for any chain, not only the open one (an export, a chain about to
 * run elsewhere); loads the check module first if needed. The open chain's problems are in
 * the store (selectProblems): read those instead.
 */
export async function problemsOfChain(chain: Chain): Promise<readonly ChainProblem[]> {
  const result = (await loadCheckModule()).parseChain(chain);
  return result.ok ? [] : result.problems;
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
