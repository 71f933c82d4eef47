import 'fake-indexeddb/auto';
import { Dexie } from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunMeta, TraceEvent } from '../../src/trace/index.ts';
import { SeamscopeDb } from './db.ts';
import { createDexieRunRepository } from './run-repository.ts';

let counter = 0;
const dbs: SeamscopeDb[] = [];
function freshDb(): SeamscopeDb {
  const db = new SeamscopeDb(`test-${++counter}`);
  dbs.push(db);
  return db;
}
afterEach(async () => {
  for (const db of dbs.splice(0)) await db.delete();
});

const meta = (id: string, chainId: string, startedAt: number): RunMeta => ({
  id, traceVersion: 1, chainId, chainName: 'c', chainRevision: 'r', chain: {}, inputs: {}, provider: 'demo', model: 'm', status: 'running', startedAt,
});
const started = (stepId: string, at: number): TraceEvent => ({ type: 'step.started', at, stepId });

describe('Dexie run repository', () => {
  it('creates, updates and lists runs newest first, per chain', async () => {
    const repo = createDexieRunRepository(freshDb());
    await repo.createRun(meta('a', 'c1', 1));
    await repo.createRun(meta('b', 'c1', 2));
    await repo.createRun(meta('x', 'c2', 3));
    await repo.updateRun('a', { status: 'succeeded', output: { answer: 42 } });
    expect((await repo.listRuns({ chainId: 'c1' })).map((r) => r.id)).toEqual(['b', 'a']);
    expect((await repo.listRuns()).map((r) => r.id)).toEqual(['x', 'b', 'a']);
    expect(await repo.getRun('a')).toMatchObject({ status: 'succeeded', output: { answer: 42 } });
    await expect(repo.createRun(meta('a', 'c1', 9))).rejects.toThrow();
    await expect(repo.updateRun('missing', { status: 'failed' })).rejects.toThrow(/No run/);
  });

  it('appends events in order and keeps runs apart', async () => {
    const repo = createDexieRunRepository(freshDb());
    await repo.createRun(meta('a', 'c', 1));
    await repo.createRun(meta('b', 'c', 2));
    await repo.appendEvents('a', [started('s1', 1), started('s2', 2)]);
    await repo.appendEvents('b', [started('t1', 3)]);
    await repo.appendEvents('a', [started('s3', 4)]);
    expect((await repo.getEvents('a')).map((e) => (e as { stepId: string }).stepId)).toEqual(['s1', 's2', 's3']);
    expect(await repo.getEvents('b')).toHaveLength(1);
    await repo.deleteRun('a');
    expect(await repo.getRun('a')).toBeUndefined();
    expect(await repo.getEvents('a')).toEqual([]);
    expect(await repo.getEvents('b')).toHaveLength(1);
  });
});

describe('writes and the rest of the origin', () => {
  it('broadcast nothing: no other tab or worker is told of each write (no liveQuery here)', async () => {
    // Creating the database is announced once (Dexie does that on open, whatever the middleware).
    const db = freshDb();
    await db.open();
    const told: unknown[] = [];
    const listener = (parts: unknown) => void told.push(parts);
    Dexie.on('storagemutated', listener);
    try {
      const repo = createDexieRunRepository(db);
      await repo.createRun(meta('r1', 'c1', 1));
      await repo.appendEvents('r1', [started('a', 2), started('b', 3)]);
      await db.evalResults.bulkPut([{ evalId: 'e', key: 'k', result: {} as never }]);
      expect((await repo.getEvents('r1')).length).toBe(2);
      expect(told).toEqual([]);
    } finally {
      Dexie.on('storagemutated').unsubscribe(listener);
    }
  });
});
