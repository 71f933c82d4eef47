import type { RunMeta, TraceEvent } from './events.ts';

/**
 * Where runs live. The browser uses a Dexie implementation (app/persistence); Node (CLI,
 * tests, benchmarks) uses the in-memory one below. Events are appended, never rewritten.
 */
export interface RunRepository {
  createRun(meta: RunMeta): Promise<void>;
  updateRun(id: string, patch: Partial<Omit<RunMeta, 'id'>>): Promise<void>;
  /** Appends in order; resolves once the events are durable. */
  appendEvents(runId: string, events: readonly TraceEvent[]): Promise<void>;
  getRun(id: string): Promise<RunMeta | undefined>;
  listRuns(filter?: { chainId?: string }): Promise<RunMeta[]>;
  getEvents(runId: string): Promise<TraceEvent[]>;
  deleteRun(id: string): Promise<void>;
}

/** A RunRepository in memory, for Node. Values are cloned so callers can't mutate history. */
export function createMemoryRunRepository(): RunRepository {
  const runs = new Map<string, RunMeta>();
  const events = new Map<string, TraceEvent[]>();
  return {
    async createRun(meta) {
      if (runs.has(meta.id)) throw new Error(`Run ${meta.id} already exists`);
      // As with events: what the engine hands over is not changed afterwards; reads clone.
      runs.set(meta.id, { ...meta });
      events.set(meta.id, []);
    },
    async updateRun(id, patch) {
      const current = runs.get(id);
      if (!current) throw new Error(`No run ${id}`);
      // As with createRun: what the engine hands over is not changed afterwards; reads clone.
      runs.set(id, { ...current, ...patch });
    },
    async appendEvents(runId, batch) {
      const list = events.get(runId);
      if (!list) throw new Error(`No run ${runId}`);
      // Emitted events are never changed afterwards, so they are kept as they are; reads still clone.
      for (const event of batch) list.push(event);
    },
    async getRun(id) {
      const run = runs.get(id);
      return run && structuredClone(run);
    },
    async listRuns(filter) {
      return [...runs.values()]
        .filter((r) => !filter?.chainId || r.chainId === filter.chainId)
        .sort((a, b) => b.startedAt - a.startedAt)
        .map((r) => structuredClone(r));
    },
    async getEvents(runId) {
      return structuredClone(events.get(runId) ?? []);
    },
    async deleteRun(id) {
      runs.delete(id);
      events.delete(id);
    },
  };
}
