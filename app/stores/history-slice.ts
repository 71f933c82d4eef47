import type { StateCreator } from 'zustand';
import { canRedo, canUndo, createHistory, record, redo, undo, type History } from '../../src/chain/index.ts';
import type { Chain } from '../../src/chain/index.ts';
import { coalesceKeyFor } from '../designer/coalesce.ts';
import type { EditorState } from './editor-store.ts';

/**
 * Undo and redo over the whole editing history. The open chain *is* `history.present` (read it
 * with `selectChain`); there is no second copy to keep in step. Edits write through
 * `withChain`, which records the new chain as the present. Typing into one field merges into
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

/**
 * The patch that makes `next` the open chain: the history advances (or starts afresh for
 * another chain). `next` equal to the present changes nothing (no re-render, no save).
 */
export function withChain(state: Pick<EditorState, 'history'>, next: Chain): Pick<EditorState, 'history'> {
  const history = state.history;
  return { history: history?.present === next ? history : advanceHistory(history, history?.present ?? null, next) };
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
      return history === state.history ? {} : { history, ...keepSelection(state, history.present) };
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
