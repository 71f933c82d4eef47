import type { LintFinding } from '../../src/chain/index.ts';
import type { ChainProblem } from '../../src/chain/parse.ts';
import type { Chain } from '../../src/chain/index.ts';
import { stepRegistry } from '../../src/steps/index.ts';

/**
 * The checks behind Problems, the design lint and the boundary markers, and where they run.
 * Small chains are checked in the main thread by a module loaded after first paint
 * (lint-sync.ts: validation brings the JSON Schema checker along, which drawing a chain does
 * not need); above LIVE_ANALYSIS_MAX_STEPS the check runs in a worker (lint of 3,000 steps
 * takes ~0.4 s). Nothing here touches a store: app/designer/analysis-subscriber.ts (loaded
 * after first paint, with the checks) decides when to check and writes the results into the
 * editor store's analysis slice. This module is on the first paint: keep it small.
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

/**
 * parseChain's problems for any chain, not only the open one (an export, a chain about to
 * run elsewhere); loads the check module first if needed. The open chain's problems are in
 * the store (selectProblems): read those instead.
 */
export async function problemsOfChain(chain: Chain): Promise<readonly ChainProblem[]> {
  const result = (await import('./lint-sync.ts')).parseChain(chain, stepRegistry);
  return result.ok ? [] : result.problems;
}
