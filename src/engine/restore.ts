import type { TraceEvent } from '../trace/events.ts';

/**
 * What an interrupted run had finished, read back from its durable events: completed steps
 * (with outputs), routing decisions, and the finished units of a map that was mid-way.
 * A step that failed is not restored: resuming gives it another go.
 */
export interface RestoredState {
  finished: Map<string, { status: 'succeeded' | 'skipped'; output?: unknown }>;
  chosen: Map<string, Set<string>>;
  units: Map<string, Map<string, { status: 'ok' | 'error'; output?: unknown; error?: { code: string; message: string } }>>;
}

export function restoreFromEvents(events: readonly TraceEvent[]): RestoredState {
  const state: RestoredState = { finished: new Map(), chosen: new Map(), units: new Map() };
  for (const e of events) {
    if (e.type === 'step.finished' && (e.status === 'succeeded' || e.status === 'skipped')) state.finished.set(e.stepId, { status: e.status, output: e.output });
    else if (e.type === 'step.route') state.chosen.set(e.stepId, new Set(e.chosen));
    else if (e.type === 'step.unit') {
      const units = state.units.get(e.stepId) ?? new Map();
      units.set(e.unitId, { status: e.status, output: e.output, error: e.error });
      state.units.set(e.stepId, units);
    }
  }
  return state;
}
