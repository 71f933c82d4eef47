import { Dexie } from 'dexie';
import type { RunRepository } from '../../src/trace/repository.ts';
import type { SeamscopeDb } from './db.ts';

/**
 * The RunRepository of src/trace/repository.ts on IndexedDB. Events are only ever added:
 * each batch goes in one transaction, so a batch is either wholly durable or absent.
 */
export function createDexieRunRepository(db: SeamscopeDb): RunRepository {
  return {
    async createRun(meta) {
      await db.runs.add(meta);
    },
    async updateRun(id, patch) {
      const changed = await db.runs.update(id, patch);
      if (changed === 0 && !(await db.runs.get(id))) throw new Error(`No run ${id}`);
    },
    async appendEvents(runId, events) {
      if (events.length === 0) return;
      await db.transaction('rw', db.events, async () => {
        await db.events.bulkAdd(events.map((event) => ({ runId, event })));
      });
    },
    getRun: (id) => db.runs.get(id),
    async listRuns(filter) {
      const collection = filter?.chainId ? db.runs.where('chainId').equals(filter.chainId) : db.runs.toCollection();
      const runs = await collection.toArray();
      return runs.sort((a, b) => b.startedAt - a.startedAt);
    },
    async getEvents(runId) {
      const rows = await db.events.where('[runId+seq]').between([runId, Dexie.minKey], [runId, Dexie.maxKey]).toArray();
      return rows.map((row) => row.event);
    },
    async deleteRun(id) {
      await db.transaction('rw', db.runs, db.events, async () => {
        await db.events.where('runId').equals(id).delete();
        await db.runs.delete(id);
      });
    },
  };
}
