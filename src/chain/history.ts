/**
 * Undo/redo over whole-chain snapshots. Chains are immutable values, so a snapshot is a
 * pointer, not a copy. Consecutive edits with the same `coalesceKey` inside `windowMs`
 * (typing in one panel field) merge into one undo step.
 */
export interface History<T> {
  past: readonly T[];
  present: T;
  future: readonly T[];
  lastKey: string | null;
  lastAt: number;
}

export function createHistory<T>(present: T): History<T> {
  return { past: [], present, future: [], lastKey: null, lastAt: 0 };
}

export function record<T>(h: History<T>, next: T, opts: { coalesceKey?: string; at?: number; windowMs?: number; limit?: number } = {}): History<T> {
  if (next === h.present) return h;
  const at = opts.at ?? Date.now();
  const merge = opts.coalesceKey !== undefined && opts.coalesceKey === h.lastKey && at - h.lastAt <= (opts.windowMs ?? 1000);
  const past = merge ? h.past : [...h.past, h.present].slice(-(opts.limit ?? 200));
  return { past, present: next, future: [], lastKey: opts.coalesceKey ?? null, lastAt: at };
}

export function undo<T>(h: History<T>): History<T> {
  const previous = h.past[h.past.length - 1];
  if (previous === undefined) return h;
  return { past: h.past.slice(0, -1), present: previous, future: [h.present, ...h.future], lastKey: null, lastAt: 0 };
}

export function redo<T>(h: History<T>): History<T> {
  const [next, ...rest] = h.future;
  if (next === undefined) return h;
  return { past: [...h.past, h.present], present: next, future: rest, lastKey: null, lastAt: 0 };
}

export const canUndo = <T>(h: History<T>) => h.past.length > 0;
export const canRedo = <T>(h: History<T>) => h.future.length > 0;
