import { create } from 'zustand';
import type { EvalEstimate, EvalProgress, EvalTable, ItemResult } from '../../src/eval/index.ts';
import type { DatasetRecord, EvalRecord } from '../persistence/db.ts';

/**
 * The Evaluate view's state: datasets, the batch going (its progress at most 4 times a
 * second), the last batch's table and its item results. Filled by eval-actions; no action
 * here touches the database.
 */
export interface EvalState {
  datasets: readonly DatasetRecord[];
  /** Batches stored, newest first (a `running` one after a reload can resume). */
  evals: readonly EvalRecord[];
  estimate: readonly EvalEstimate[] | null;
  running: { evalId: string; progress: EvalProgress } | null;
  shown: { evalId: string; table: EvalTable; results: readonly ItemResult[] } | null;
  /** Controls that cannot be built and chains left out, with the reason (shown in the dialog). */
  notes: readonly string[];
  setNotes(notes: readonly string[]): void;
  /** Items a month, for the spend column (0: not stated). */
  volume: number;
  setVolume(volume: number): void;
  /** Minutes a person spends on one escalation, for the abstention arithmetic. */
  handlingMinutes: number;
  setHandlingMinutes(minutes: number): void;
  setDatasets(datasets: readonly DatasetRecord[]): void;
  setEvals(evals: readonly EvalRecord[]): void;
  setEstimate(estimate: readonly EvalEstimate[] | null): void;
  setRunning(running: EvalState['running']): void;
  setShown(shown: EvalState['shown']): void;
}

export const useEvalStore = create<EvalState>()((set) => ({
  datasets: [],
  evals: [],
  estimate: null,
  running: null,
  shown: null,
  notes: [],
  setNotes: (notes) => set({ notes }),
  volume: 0,
  setVolume: (volume) => set({ volume }),
  handlingMinutes: 4,
  setHandlingMinutes: (handlingMinutes) => set({ handlingMinutes }),
  setDatasets: (datasets) => set({ datasets }),
  setEvals: (evals) => set({ evals }),
  setEstimate: (estimate) => set({ estimate }),
  setRunning: (running) => set({ running }),
  setShown: (shown) => set({ shown }),
}));
