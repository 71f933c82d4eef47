import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvalVariant, ItemResult } from '../eval/run-eval.ts';
import { createProviderForProfile, runModelSettings } from '../providers/profiles.ts';
import { stepRegistry } from '../steps/index.ts';
import { answerChain, answerDataset, itemMarker, mockProfile } from '../testing/batch-fixtures.ts';
import { createMockModelServer, type MockModelServer } from '../testing/mock-server.ts';
import { POSTGRES_MISSING, postgresAvailable, startPostgresServer, type PostgresServer } from '../testing/postgres-server.ts';
import { openBackend } from './backend.ts';
import { profileKey } from './chain-store.ts';
import { runBatch } from './coordinator.ts';
import { parseQueueUrl } from './queue-url.ts';
import { startBatchWorker } from './worker.ts';

/**
 * The same batch on BullMQ's PostgreSQL backend (bullmq 6.7), on Debian's PostgreSQL 15:
 * every job through the same coordinator and worker code, the chain stored by hash, results
 * back, an item failing for good reported, and the worker's key in no table.
 */
const hasPostgres = postgresAvailable();
if (!hasPostgres) console.warn(`skipping the PostgreSQL batch test: ${POSTGRES_MISSING}`);

const CANARY = 'sk-pg-canary-W3nB8xQ1';
let pg: PostgresServer;
let mock: MockModelServer;

beforeAll(async () => {
  if (!hasPostgres) return;
  pg = await startPostgresServer();
  mock = await createMockModelServer({ apiKey: CANARY, idleExitMs: 120_000 });
}, 60_000);
afterAll(async () => {
  if (!hasPostgres) return;
  await mock.close();
  await pg.stop();
});

describe.skipIf(!hasPostgres)('a batch on BullMQ\'s PostgreSQL backend', () => {
  it('runs every item through a worker and collects the results, the key in no table', async () => {
    mock.setResponder((call) => call.messages.some((m) => m.content.includes(itemMarker(2))) ? { fault: 'status', status: 400 } : { content: { answer: 'Within 60 days.' } });
    const parsed = parseQueueUrl(pg.url);
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.target.kind).toBe('postgres');
    const profile = mockProfile(mock.url);
    const workerBackend = await openBackend(parsed.target);
    const worker = startBatchWorker({ backend: workerBackend, profileKey: profileKey(profile), provider: createProviderForProfile(profile, { apiKey: CANARY }), model: runModelSettings(profile), registry: stepRegistry, concurrency: 4, lockDurationMs: 5_000 });
    const backend = await openBackend(parsed.target);
    const variant: EvalVariant = { name: 'answer', kind: 'chain', chain: answerChain() };
    const dataset = answerDataset(10);
    const results: ItemResult[] = [];
    let midway = '';
    const summary = await runBatch({
      backend, batchId: 'pg-batch', profileKey: profileKey(profile), variants: [variant], itemsFor: () => dataset.items, done: new Set(), sweepMs: 300,
      runIdFor: (_v, item) => `pg-batch-${item.id}`,
      onResult: async (r) => {
        results.push(r);
        if (results.length === 5) midway = pg.dumpData();
      },
    });
    await worker.close();
    await workerBackend.close();
    await backend.close();
    expect(summary).toMatchObject({ cancelled: false, ran: 10 });
    expect(new Set(results.map((r) => r.itemId)).size).toBe(10);
    expect(results.filter((r) => r.status === 'failed').map((r) => r.itemId)).toEqual(['item-2']);
    expect(midway).toContain('seamscope.batch-job');
    expect(midway).not.toContain(CANARY);
    expect(pg.dumpData()).not.toContain(CANARY);
  }, 60_000);

  it('reports a server that goes away in one line per error while the backend is open, and nothing after it is closed', async () => {
    const own = await startPostgresServer();
    try {
      const parsed = parseQueueUrl(own.url);
      if (!parsed.ok) throw new Error(parsed.message);
      // Closed before the server stops, as a bench or a CLI run ends: its clients ending is not news.
      const quiet: string[] = [];
      const closed = await openBackend(parsed.target, {}, { log: (line) => quiet.push(line) });
      const closedQueue = closed.queue('teardown');
      await closedQueue.getJobCounts();
      await closedQueue.close();
      await closed.close();
      // Still open when the server shuts down: each error is reported, one line with its SQLSTATE, no client object.
      const lines: string[] = [];
      const open = await openBackend(parsed.target, {}, { log: (line) => lines.push(line) });
      const queue = open.queue('teardown');
      await queue.getJobCounts();
      await own.stop();
      for (let i = 0; i < 200 && lines.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 25));
      expect(quiet).toEqual([]);
      expect(lines.length).toBeGreaterThan(0);
      expect(lines[0]).toMatch(/^queue backend \(pool\): terminating connection due to administrator command \(57P01\)$/);
      expect(lines.every((l) => !l.includes('\n') && l.length < 700)).toBe(true);
      await queue.close();
      await open.close();
    } finally {
      await own.stop();
    }
  }, 60_000);
});
