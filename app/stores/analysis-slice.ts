import type { StateCreator } from 'zustand';
import type { LintFinding } from '../../src/chain/index.ts';
import type { ChainProblem } from '../../src/chain/parse.ts';
import type { Chain } from '../../src/chain/index.ts';
import type { EditorState } from './editor-store.ts';

/**
 * What the checks found in the open chain: parseChain's problems, the design lint (only for a
 * sound chain), the data edges whose contract leaves a decision open, and the per-step counts
 * the canvas badges show. Filled from outside by app/designer/analysis-subscriber.ts, never by
 * a selector, so reading it costs nothing and schedules nothing.
 */
export interface ChainAnalysis {
  /**
   * The chain revision these results are for. While `pending` it is an earlier revision of the
   * open chain (its results show meanwhile), or null when there are none yet.
   */
  revision: Chain | null;
  problems: readonly ChainProblem[];
  lint: readonly LintFinding[];
  unanswered: ReadonlySet<string>;
  /** Step id → number of problems on it. */
  problemCounts: ReadonlyMap<string, number>;
  /** Step id → number of design warnings on it (info is left off the canvas). */
  lintWarningCounts: ReadonlyMap<string, number>;
  /** Step id → number of design errors on it (a binding its kind needs, unbound). */
  lintErrorCounts: ReadonlyMap<string, number>;
  /** The open revision's results are still to come: the check module is loading, or a worker is checking. */
  pending: boolean;
}

export interface AnalysisSlice {
  analysis: ChainAnalysis;
  setAnalysis(analysis: ChainAnalysis): void;
}

const none: ReadonlyMap<string, number> = new Map();

/** No chain open, or nothing known yet about the one that is. */
export const noAnalysis: ChainAnalysis = {
  revision: null, problems: [], lint: [], unanswered: new Set(), problemCounts: none, lintWarningCounts: none, lintErrorCounts: none, pending: false,
};

export const createAnalysisSlice: StateCreator<EditorState, [], [], AnalysisSlice> = (set) => ({
  // Pending until the subscriber (loaded after first paint) has started and checked the open chain.
  analysis: { ...noAnalysis, pending: true },
  setAnalysis: (analysis) => set({ analysis }),
});
