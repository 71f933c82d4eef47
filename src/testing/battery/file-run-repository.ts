import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunMeta, TraceEvent } from '../../trace/events.ts';
import type { RunRepository } from '../../trace/repository.ts';

/**
 * A RunRepository on disk for Node, so a run killed with SIGKILL leaves exactly what was made
 * durable: each event batch is one append of JSON lines (written synchronously before
 * `appendEvents` resolves), the run summary is replaced by rename (never half written). A torn
 * last line (the process died inside the write) is not durable and is ignored on read.
 */
export function createFileRunRepository(folder: string): RunRepository {
  mkdirSync(folder, { recursive: true });
  const metaPath = (id: string) => join(folder, `${encodeURIComponent(id)}.meta.json`);
  const eventsPath = (id: string) => join(folder, `${encodeURIComponent(id)}.events.jsonl`);
  const writeMeta = (meta: RunMeta) => {
    const tmp = `${metaPath(meta.id)}.tmp`;
    writeFileSync(tmp, JSON.stringify(meta));
    renameSync(tmp, metaPath(meta.id));
  };
  const readMeta = (id: string): RunMeta | undefined => (existsSync(metaPath(id)) ? (JSON.parse(readFileSync(metaPath(id), 'utf8')) as RunMeta) : undefined);
  return {
    async createRun(meta) {
      if (existsSync(metaPath(meta.id))) throw new Error(`Run ${meta.id} already exists`);
      writeMeta(meta);
      writeFileSync(eventsPath(meta.id), '');
    },
    async updateRun(id, patch) {
      const current = readMeta(id);
      if (!current) throw new Error(`No run ${id}`);
      writeMeta({ ...current, ...patch });
    },
    async appendEvents(runId, events) {
      if (!existsSync(eventsPath(runId))) throw new Error(`No run ${runId}`);
      if (events.length > 0) appendFileSync(eventsPath(runId), events.map((e) => `${JSON.stringify(e)}\n`).join(''));
    },
    getRun: async (id) => readMeta(id),
    async listRuns(filter) {
      return readdirSync(folder)
        .filter((f) => f.endsWith('.meta.json'))
        .map((f) => JSON.parse(readFileSync(join(folder, f), 'utf8')) as RunMeta)
        .filter((r) => !filter?.chainId || r.chainId === filter.chainId)
        .sort((a, b) => b.startedAt - a.startedAt);
    },
    async getEvents(runId) {
      if (!existsSync(eventsPath(runId))) return [];
      const lines = readFileSync(eventsPath(runId), 'utf8').split('\n');
      const events: TraceEvent[] = [];
      for (const [i, line] of lines.entries()) {
        if (!line) continue;
        try {
          events.push(JSON.parse(line) as TraceEvent);
        } catch (error) {
          // Only the very last line can be torn by a kill; anywhere else it is corruption.
          if (i < lines.length - 1 && lines.slice(i + 1).some(Boolean)) throw error;
        }
      }
      return events;
    },
    async deleteRun(id) {
      rmSync(metaPath(id), { force: true });
      rmSync(eventsPath(id), { force: true });
    },
  };
}
