import { create } from 'zustand';

/**
 * The connection to a `seamscope collect` read API, as the run list shows it. Small and loaded
 * at start so the run list knows whether to show it; the connection itself (app/runs/collector)
 * loads when the person connects, and is the only writer here.
 */
export type CollectorStatus = 'off' | 'connecting' | 'connected' | 'retrying';

export interface CollectorState {
  status: CollectorStatus;
  /** The collector's origin, as the person gave it. */
  origin: string | null;
  /** Traces stored from it since connecting (not counting ones stored before). */
  received: number;
  lastName: string | null;
  /** Why it is retrying, or why it stopped. */
  problem: string | null;
}

export const useCollectorStore = create<CollectorState>()(() => ({ status: 'off', origin: null, received: 0, lastName: null, problem: null }));

export const selectCollectorStatus = (s: CollectorState) => s.status;
export const selectCollectorProblem = (s: CollectorState) => s.problem;
