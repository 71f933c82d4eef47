import { create } from 'zustand';
import type { EvalEstimate, EvalProgress, EvalTable, EvalVariant, ItemResult } from '../../src/eval/index.ts';
import type { DatasetRecord, EvalRecord } from '../persistence/db.ts';

/** A planned baseline, with the prompt its one call sends (shown before and after it runs). */
export interface BaselinePlan {
  /** The variant's key (`<chain id>:baseline`). */
  name: string;
  label: string;
  generated: boolean;
  system: string;
  prompt: string;
  /** The placeholders each item fills, with what fills them. */
  fills: readonly { placeholder: string; from: string }[];
}

/**
 * The Evaluate view's state: what is ticked and chosen (dataset, chains, controls, runs at once,
 * volume), the batch going (its progress at most 4 times a second), the last batch's table and
 * its item results. The view reads and writes it; it lives as long as the tab, so leaving the
 * view for the designer and coming back finds everything as it was, and the top bar shows a
 * running batch from anywhere. Filled by eval-actions; no action here touches the database.
 */
export interface EvalState {
  /** Whether the Evaluate view is in front (else the designer is). */
  viewOpen: boolean;
  setViewOpen(open: boolean): void;
  datasets: readonly DatasetRecord[];
  /** Batches stored, newest first (a `running` one after a reload can resume). */
  evals: readonly EvalRecord[];
  /** The dataset picked ('' until one is: the newest is used). */
  datasetId: string;
  setDatasetId(id: string): void;
  /** The chains ticked, by id, in the order ticked. */
  chainIds: readonly string[];
  toggleChain(id: string): void;
  controls: boolean;
  setControls(controls: boolean): void;
  /** Runs at once. */
  concurrency: number;
  setConcurrency(concurrency: number): void;
  estimate: readonly EvalEstimate[] | null;
  /** The baselines the ticks would run, with their prompts. */
  baselines: readonly BaselinePlan[];
  running: { evalId: string; progress: EvalProgress } | null;
  shown: { evalId: string; table: EvalTable; results: readonly ItemResult[]; variants: readonly EvalVariant[] } | null;
  /** The variant whose items and details are open in the table. */
  openVariant: string | null;
  setOpenVariant(name: string | null): void;
  /** Controls that cannot be built and chains left out, with the reason, for the chains ticked now. */
  notes: readonly string[];
  /** Items a month, for the spend column (0: not stated). */
  volume: number;
  setVolume(volume: number): void;
  /** Minutes a person spends on one escalation, for the abstention arithmetic. */
  handlingMinutes: number;
  setHandlingMinutes(minutes: number): void;
  setDatasets(datasets: readonly DatasetRecord[]): void;
  setEvals(evals: readonly EvalRecord[]): void;
  /** The bill, the notes and the baselines for what is ticked, together (never one from older ticks). */
  setPlan(plan: { estimate: readonly EvalEstimate[]; notes: readonly string[]; baselines: readonly BaselinePlan[] } | null): void;
  setRunning(running: EvalState['running']): void;
  setShown(shown: EvalState['shown']): void;
}

export const useEvalStore = create<EvalState>()((set) => ({
  viewOpen: false,
  setViewOpen: (viewOpen) => set({ viewOpen }),
  datasets: [],
  evals: [],
  datasetId: '',
  setDatasetId: (datasetId) => set({ datasetId }),
  chainIds: [],
  toggleChain: (id) => set((s) => ({ chainIds: s.chainIds.includes(id) ? s.chainIds.filter((x) => x !== id) : [...s.chainIds, id] })),
  controls: false,
  setControls: (controls) => set({ controls }),
  concurrency: 4,
  setConcurrency: (concurrency) => set({ concurrency }),
  estimate: null,
  baselines: [],
  running: null,
  shown: null,
  openVariant: null,
  setOpenVariant: (openVariant) => set({ openVariant }),
  notes: [],
  volume: 0,
  setVolume: (volume) => set({ volume }),
  handlingMinutes: 4,
  setHandlingMinutes: (handlingMinutes) => set({ handlingMinutes }),
  setDatasets: (datasets) => set({ datasets }),
  setEvals: (evals) => set({ evals }),
  setPlan: (plan) => set(plan ? { estimate: plan.estimate, notes: plan.notes, baselines: plan.baselines } : { estimate: null, notes: [], baselines: [] }),
  setRunning: (running) => set({ running }),
  setShown: (shown) => set({ shown }),
}));

/** The running batch's progress, or null: the top bar re-renders on this alone. */
export const selectEvalProgress = (s: EvalState) => s.running?.progress ?? null;
export const selectEvalViewOpen = (s: EvalState) => s.viewOpen;
