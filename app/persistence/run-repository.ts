import { Dexie } from 'dexie';
import { TRACE_VERSION, type RunMeta } from '../../src/trace/index.ts';
import type { RunRepository } from '../../src/trace/index.ts';
import { upToDateEvents, upToDateRunMeta } from '../../src/trace/index.ts';
import type { SeamscopeDb } from './db.ts';

/**
 * The RunRepository of src/trace/repository.ts on IndexedDB. Events are only ever added:
 * each batch goes in one transaction, so a batch is either wholly durable or absent. Runs
 * written by an older Seamscope are migrated as they are read (src/trace/restore.ts); what is
 * stored is left as it was.
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
    async getRun(id) {
      const meta = await db.runs.get(id);
      return meta && upToDateRunMeta(meta);
    },
    async listRuns(filter) {
      const collection = filter?.chainId ? db.runs.where('chainId').equals(filter.chainId) : db.runs.toCollection();
      const runs: RunMeta[] = [];
      for (const meta of await collection.toArray()) {
        try {
          runs.push(upToDateRunMeta(meta));
        } catch {
          // A run this version cannot read (from a newer Seamscope) stays stored, out of the list.
        }
      }
      return runs.sort((a, b) => b.startedAt - a.startedAt);
    },
    async getEvents(runId) {
      const [meta, rows] = await Promise.all([db.runs.get(runId), db.events.where('[runId+seq]').between([runId, Dexie.minKey], [runId, Dexie.maxKey]).toArray()]);
      return upToDateEvents(rows.map((row) => row.event), meta?.traceVersion ?? TRACE_VERSION, runId);
    },
    async deleteRun(id) {
      await db.transaction('rw', db.runs, db.events, async () => {
        await db.events.where('runId').equals(id).delete();
        await db.runs.delete(id);
      });
    },
  };
}
