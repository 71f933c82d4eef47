import type { StateCreator } from 'zustand';
import { canRedo, canUndo, createHistory, record, redo, undo, type History } from '../../src/chain/history.ts';
import type { Chain } from '../../src/chain/schema.ts';
import { coalesceKeyFor } from '../designer/coalesce.ts';
import type { EditorState } from './editor-store.ts';

/**
 * Undo and redo over the whole editing history. The open chain is always `history.present`:
 * the `withHistory` middleware records every new chain object, whichever action (or
 * `setState`) produced it, so no action has to remember to. Typing into one field merges into
 * one step (see coalesceKeyFor); `transact` makes several actions one step (a multi-node drag,
 * a delete of nodes and edges).
 */
export interface HistorySlice {
  history: History<Chain> | null;
  undo(): void;
  redo(): void;
  /** Runs `fn`; every chain change inside it becomes one undo step. */
  transact(fn: () => void): void;
}

const COALESCE_MS = 1000;
let batch: string | null = null;
let batches = 0;

/** The history after the chain changed from `prev` to `next` (a different chain starts a new one). */
export function advanceHistory(history: History<Chain> | null, prev: Chain | null, next: Chain | null, at = Date.now()): History<Chain> | null {
  if (!next) return null;
  if (!history || !prev || prev.id !== next.id) return createHistory(next);
  if (batch) return record(history, next, { coalesceKey: batch, at, windowMs: Infinity });
  return record(history, next, { coalesceKey: coalesceKeyFor(prev, next), at, windowMs: COALESCE_MS });
}

/** Drops ids of steps the restored chain no longer has. */
function keepSelection(state: EditorState, chain: Chain): Partial<EditorState> {
  const ids = new Set(chain.steps.map((s) => s.id));
  const selectedStepIds = state.selectedStepIds.filter((id) => ids.has(id));
  const selectedStepId = state.selectedStepId && ids.has(state.selectedStepId) ? state.selectedStepId : null;
  return selectedStepIds.length === state.selectedStepIds.length && selectedStepId === state.selectedStepId ? {} : { selectedStepIds, selectedStepId };
}

export const createHistorySlice: StateCreator<EditorState, [], [], HistorySlice> = (set) => {
  const move = (step: (h: History<Chain>) => History<Chain>) =>
    set((state) => {
      if (!state.history) return {};
      const history = step(state.history);
      return history === state.history ? {} : { history, chain: history.present, ...keepSelection(state, history.present) };
    });
  return {
    history: null,
    undo: () => move(undo),
    redo: () => move(redo),
    transact: (fn) => {
      if (batch) return fn();
      batch = `batch:${++batches}`;
      try {
        fn();
      } finally {
        batch = null;
      }
    },
  };
};

export const selectCanUndo = (s: EditorState) => (s.history ? canUndo(s.history) : false);
export const selectCanRedo = (s: EditorState) => (s.history ? canRedo(s.history) : false);

/**
 * Middleware for the combined editor store: a set that changes `chain` (and does not set
 * `history` itself, as undo and redo do) also advances the history, in the same update.
 */
export function withHistory(creator: StateCreator<EditorState, [], []>): StateCreator<EditorState, [], []> {
  return (set, get, api) => {
    type Patch = Partial<EditorState> | ((state: EditorState) => Partial<EditorState>);
    const tracked = (partial: Patch) =>
      set((state) => {
        const patch = typeof partial === 'function' ? partial(state) : partial;
        if (!patch || !('chain' in patch) || patch.chain === state.chain || 'history' in patch) return patch;
        return { ...patch, history: advanceHistory(state.history, state.chain, patch.chain ?? null) };
      });
    // External setState calls (tests, tab sync) go through the same recording.
    api.setState = tracked as typeof api.setState;
    return creator(tracked as typeof set, get, api);
  };
}
