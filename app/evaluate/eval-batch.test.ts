import 'fake-indexeddb/auto';
import { Dexie } from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import type { EvalProgress } from '../../src/eval/index.ts';
import { demoProfile } from '../../src/providers/profiles.ts';
import { twoStepChain } from '../../src/testing/index.ts';
import { SeamscopeDb, type EvalRecord } from '../persistence/db.ts';
import { storeDataset } from '../persistence/datasets.ts';
import { createDexieRunRepository } from '../persistence/run-repository.ts';
import { runStoredEval } from './eval-batch.ts';

const dbs: SeamscopeDb[] = [];
let counter = 0;
afterEach(async () => {
  for (const db of dbs.splice(0)) {
    db.close();
    await Dexie.delete(db.name);
  }
});

/** A stored batch of `n` items of the two-step chain on the offline demo model, with a count of result transactions. */
async function setUp(n: number) {
  const db = new SeamscopeDb(`eval-batch-${++counter}`);
  dbs.push(db);
  const dataset = await storeDataset(db, 'q.dataset.jsonl', {
    items: Array.from({ length: n }, (_, i) => ({ id: `q${i}`, inputs: { document: `File within ${i + 1} days.`, question: 'How long?' }, expected: { facts: [`${i + 1} days`] } })),
  });
  const record: EvalRecord = { id: 'eval-1', datasetId: dataset.id, variants: [{ name: 'two-step', kind: 'chain', chain: twoStepChain() }], profileId: 'demo', concurrency: 4, status: 'running', startedAt: 1 };
  const writes = { transactions: 0 };
  const bulkPut = db.evalResults.bulkPut.bind(db.evalResults);
  db.evalResults.bulkPut = ((...args: Parameters<typeof bulkPut>) => {
    writes.transactions++;
    return bulkPut(...args);
  }) as typeof bulkPut;
  return { db, repo: createDexieRunRepository(db), job: { record, profile: demoProfile, files: new Map() }, writes };
}

describe('runStoredEval', () => {
  it('stores every result, several to a transaction, before it returns', async () => {
    const { db, repo, job, writes } = await setUp(12);
    const outcome = await runStoredEval(db, repo, job, new AbortController().signal, () => undefined);
    expect(outcome).toEqual({ cancelled: false });
    const stored = await db.evalResults.where('evalId').equals('eval-1').toArray();
    expect(stored.map((r) => r.result.itemId).sort()).toEqual(Array.from({ length: 12 }, (_, i) => `q${i}`).sort());
    expect(writes.transactions).toBeGreaterThan(0);
    expect(writes.transactions).toBeLessThan(12);
    // Each item's run is stored with its batch's id, so run lists keep it apart from a person's runs.
    const runs = await db.runs.toArray();
    expect(runs).toHaveLength(12);
    expect(new Set(runs.map((r) => r.evalId))).toEqual(new Set(['eval-1']));
  });

  it('a cancel keeps every result it reported, and resume runs only the rest', async () => {
    const { db, repo, job } = await setUp(12);
    const controller = new AbortController();
    const seen: EvalProgress[] = [];
    const outcome = await runStoredEval(db, repo, job, controller.signal, (progress) => {
      seen.push(progress);
      if (progress.done >= 1) controller.abort();
    });
    expect(outcome.cancelled).toBe(true);
    const kept = await db.evalResults.where('evalId').equals('eval-1').toArray();
    expect(kept.length).toBeGreaterThanOrEqual(seen.at(-1)?.done ?? 1);
    expect(kept.length).toBeLessThan(12);
    const again: EvalProgress[] = [];
    await runStoredEval(db, repo, job, new AbortController().signal, (progress) => void again.push(progress));
    const all = await db.evalResults.where('evalId').equals('eval-1').toArray();
    expect(all.map((r) => r.result.itemId).sort()).toEqual(Array.from({ length: 12 }, (_, i) => `q${i}`).sort());
    expect(again.at(-1)).toMatchObject({ done: 12, total: 12 });
  });
});
