import type { Chain } from '../../src/chain/index.ts';
import type { TraceEvent } from '../../src/trace/index.ts';
// Straight from its module, not the steps index: the index is in the first load, the replay is not.
import { createAssemblyFold, type AssemblyFold, type AssemblyProgress } from '../../src/steps/assembly-progress.ts';

/**
 * The assembled document of a trace that grows: a live run hands the replay a longer copy of its
 * events at each flush. When the new list starts with the events already folded (the same event
 * objects), only the new ones are folded in; another chain or another trace starts again. So a
 * long live run costs each event once, not the whole trace per flush.
 */
export function createAssemblyFoldCache(): (chain: Chain, events: readonly TraceEvent[]) => AssemblyProgress | null {
  let state: { chain: Chain; fold: AssemblyFold; folded: number; last: TraceEvent | undefined; shown: AssemblyProgress | null } | null = null;
  return (chain, events) => {
    const extends_ = state && state.chain === chain && events.length >= state.folded && events[state.folded - 1] === state.last;
    if (!state || !extends_) state = { chain, fold: createAssemblyFold(chain), folded: 0, last: undefined, shown: null };
    let changed = state.folded === 0;
    for (let i = state.folded; i < events.length; i++) changed = state.fold.add(events[i] as TraceEvent) || changed;
    state.folded = events.length;
    state.last = events.at(-1);
    // The first assembly that has its groups is shown; unchanged progress keeps its object.
    if (changed) state.shown = state.fold.progress().find((p) => p.total > 0) ?? null;
    return state.shown;
  };
}
