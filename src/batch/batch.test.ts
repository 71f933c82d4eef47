import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvalVariant, ItemResult } from '../eval/run-eval.ts';
import { createProviderForProfile, runModelSettings } from '../providers/profiles.ts';
import { stepRegistry } from '../steps/index.ts';
import { answerChain, answerDataset, itemMarker, itemOfPrompt, mockProfile } from '../testing/batch-fixtures.ts';
import { createMockModelServer, type MockModelServer } from '../testing/mock-server.ts';
import { REDIS_MISSING, redisContents, redisServerPath, startRedisServer, type RedisServer } from '../testing/redis-server.ts';
import { openBackend, type QueueBackend } from './backend.ts';
import { CHAINS_QUEUE, chainHash, evalQueueName, profileKey } from './chain-store.ts';
import { runBatch, type BatchOptions } from './coordinator.ts';
import { enqueueInChunks } from './enqueue.ts';
import { JOB_FORMAT, type JobData } from './payload.ts';
import { parseQueueUrl } from './queue-url.ts';
import { startBatchWorker, type BatchWorker } from './worker.ts';

/**
 * The failure semantics of a batch, against a real redis-server and the mock model server
 * over HTTP, with workers in this process (each its own Redis connections, as separate
 * machines would have). The kill -9 and coordinator-restart cases, which need separate
 * processes, are in kill.test.ts.
 */
const hasRedis = redisServerPath() !== null;
if (!hasRedis) console.warn(`skipping the batch tests: ${REDIS_MISSING}`);

const CANARY = 'sk-batch-canary-Q8vT2mZ7xR4k';
let redis: RedisServer;
let mock: MockModelServer;
const backends: QueueBackend[] = [];
const workers: BatchWorker[] = [];

beforeAll(async () => {
  if (!hasRedis) return;
  redis = await startRedisServer();
  // The mock requires the canary key: a worker that did not send its own key would fail loudly.
  mock = await createMockModelServer({ apiKey: CANARY, idleExitMs: 120_000 });
});
afterAll(async () => {
  if (!hasRedis) return;
  for (const w of workers) await w.close();
  for (const b of backends) await b.close();
  await mock.close();
  await redis.stop();
});

const backend = async () => {
  const parsed = parseQueueUrl(redis.url);
  if (!parsed.ok) throw new Error(parsed.message);
  const b = await openBackend(parsed.target);
  backends.push(b);
  return b;
};
const profile = () => mockProfile(mock.url);
const worker = async (concurrency = 4) => {
  const w = startBatchWorker({
    backend: await backend(), profileKey: profileKey(profile()), provider: createProviderForProfile(profile(), { apiKey: CANARY }),
    model: runModelSettings(profile()), registry: stepRegistry, concurrency, lockDurationMs: 5_000,
  });
  workers.push(w);
  return w;
};
const stopWorkers = async () => {
  for (const w of workers.splice(0)) await w.close();
};

let batchN = 0;
async function batch(n: number, extra: Partial<BatchOptions> = {}) {
  const variant: EvalVariant = { name: 'answer', kind: 'chain', chain: answerChain() };
  const dataset = answerDataset(n);
  const batchId = `test-batch-${++batchN}`;
  const results: ItemResult[] = [];
  const runFiles: (string | null)[] = [];
  const run = runBatch({
    backend: await backend(), batchId, profileKey: profileKey(profile()), variants: [variant], itemsFor: () => dataset.items, done: new Set(),
    runIdFor: (_v, item) => `${batchId}-${item.id}`, sweepMs: 300,
    onResult: async (r, f) => void (results.push(r), runFiles.push(f)), ...extra,
  });
  return { run, results, runFiles, batchId, variant };
}

async function until(check: () => Promise<boolean> | boolean, what: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
}

const everythingInRedis = () => redisContents(redis.port);

describe.skipIf(!hasRedis)('a batch on BullMQ', () => {
  it('runs every item once with the worker\'s own key, which never enters Redis, even from an endpoint that echoes it', async () => {
    mock.reset();
    // One endpoint answer echoes the key it received in its error body: the engine must scrub it before anything is stored.
    mock.setResponder((call) => {
      const text = call.messages.map((m) => m.content).join('\n');
      return text.includes(itemMarker(3)) ? { fault: 'echo_key', status: 401 } : { content: { answer: 'Within 60 days.' } };
    });
    await worker(4);
    let midway = '';
    const b = await batch(12, {
      onResult: async (r, f) => {
        b.results.push(r);
        b.runFiles.push(f);
        // Taken while other jobs wait, run and finish: their data, locks, events and return values.
        if (b.results.length === 6) midway = await everythingInRedis();
      },
    });
    const summary = await b.run;
    await stopWorkers();
    expect(summary).toMatchObject({ cancelled: false, ran: 12, skipped: 0 });
    expect(new Set(b.results.map((r) => r.itemId)).size).toBe(12);
    // Listed with their errors, so a failure says which item failed and why.
    expect(b.results.filter((r) => r.status !== 'succeeded').map((r) => [r.itemId, r.status, r.error?.slice(0, 300)])).toEqual([['item-3', 'failed', expect.any(String)]]);
    expect(mock.requests.some((r) => r.headers.authorization === '[redacted]')).toBe(true);
    expect(midway).toContain(JOB_FORMAT);
    expect(midway).not.toContain(CANARY);
    expect(midway).not.toContain(CANARY.slice(3));
    const after = await everythingInRedis();
    expect(after).not.toContain(CANARY.slice(3));
    expect(b.runFiles.join('\n')).not.toContain(CANARY.slice(3));
    expect(JSON.stringify(b.results)).not.toContain(CANARY.slice(3));
  });

  it('fails a job with a bad payload at once, with a clear error, and the worker goes on with the next', async () => {
    mock.reset();
    mock.setResponder(() => ({ content: { answer: 'Within 60 days.' } }));
    const b = await backend();
    const queue = b.queue(evalQueueName(profileKey(profile())));
    const bad = await queue.add('junk', { format: JOB_FORMAT, version: 1, batchId: 'x', runId: 'no spaces allowed here' }, { jobId: 'junk-1', attempts: 3 });
    await worker(2);
    await until(async () => (await queue.getJob('junk-1').then((j) => j?.getState())) === 'failed', 'the bad job to fail');
    const failedJob = await queue.getJob(bad.id as string);
    expect(failedJob?.failedReason).toMatch(/^bad job payload: /);
    // Unrecoverable: one attempt of the three, not retried.
    expect(failedJob?.attemptsMade).toBe(1);
    const next = await batch(3);
    expect(await next.run).toMatchObject({ ran: 3 });
    expect(next.results.every((r) => r.status === 'succeeded')).toBe(true);
    await stopWorkers();
    await queue.close();
  });

  it('reports an item that fails after its retries with its error, and retries nothing forever', async () => {
    mock.reset();
    // A permanent endpoint failure for one item: the engine's own retries, then a failed run (a result, not a job retry).
    mock.setResponder((call) => call.messages.some((m) => m.content.includes(itemMarker(1))) ? { fault: 'status', status: 500 } : { content: { answer: 'Within 60 days.' } });
    const b = await batch(4, { attempts: 2, backoffMs: 20 });
    // The chain vanishes from the store before any worker reads it: every job throws, is retried once, then fails.
    const store = (await backend()).queue(CHAINS_QUEUE);
    await until(async () => (await store.getJob(`chain-${chainHash(b.variant.chain)}`)) !== undefined, 'the chain to be stored');
    const queue = (await backend()).queue(evalQueueName(profileKey(profile())));
    await until(async () => (await queue.getJobCounts('wait')).wait === 4, 'the jobs to be queued');
    await (await store.getJob(`chain-${chainHash(b.variant.chain)}`))?.remove();
    const w = await worker(2);
    const summary = await b.run;
    expect(summary.ran).toBe(4);
    expect(b.results.map((r) => r.status)).toEqual(['failed', 'failed', 'failed', 'failed']);
    for (const r of b.results) expect(r.error).toMatch(/^job failed after 2 attempt\(s\): chain [0-9a-f]{14} is not in the queue store/);
    expect(w.failed).toBe(8);
    expect(mock.requests).toHaveLength(0);
    await stopWorkers();

    // The same items with the chain in place: item 1's endpoint fails for good, reported with the endpoint's error.
    const again = await batch(4);
    await worker(2);
    await again.run;
    await stopWorkers();
    const failed = again.results.filter((r) => r.status === 'failed');
    expect(failed.map((r) => r.itemId)).toEqual(['item-1']);
    expect(failed[0]?.error).toMatch(/500|server/i);
    const item1Calls = mock.requests.filter((r) => itemOfPrompt(JSON.stringify(r.body)) === 1).length;
    expect(item1Calls).toBeGreaterThan(1);
    expect(item1Calls).toBeLessThanOrEqual(10);
    await store.close();
    await queue.close();
  });

  it('holds every worker of an endpoint profile to one rate limit (BullMQ\'s global limiter)', async () => {
    mock.reset();
    const started: number[] = [];
    mock.setResponder(() => (started.push(Date.now()), { content: { answer: 'Within 60 days.' } }));
    // Two workers with 4 slots each could start all 8 items at once; 2 per 400 ms takes four windows.
    await worker(4);
    await worker(4);
    const b = await batch(8, { rateLimit: { max: 2, durationMs: 400 } });
    await b.run;
    await stopWorkers();
    const queue = (await backend()).queue(evalQueueName(profileKey(profile())));
    await queue.removeGlobalRateLimit();
    await queue.close();
    expect(started).toHaveLength(8);
    // A lower bound only (a slow machine makes it longer, never shorter): the 7th and 8th
    // items start in the fourth window, at least three windows after the first.
    expect(Math.max(...started) - Math.min(...started)).toBeGreaterThanOrEqual(3 * 400 - 100);
  });

  it('with a rate limit set, pauses every worker of the endpoint when one meets a 429 with Retry-After', async () => {
    mock.reset();
    const calls: { at: number; limited: boolean }[] = [];
    mock.setResponder(() => {
      const limited = calls.length === 0;
      calls.push({ at: Date.now(), limited });
      return limited ? { fault: 'status', status: 429, headers: { 'retry-after-ms': '800' } } : { content: { answer: 'Within 60 days.' } };
    });
    await worker(1);
    await worker(1);
    // A limit that never binds here (1,000 items a second): BullMQ honours a worker's pause only on a limited queue.
    const b = await batch(4, { rateLimit: { max: 1_000, durationMs: 1_000 } });
    await b.run;
    await stopWorkers();
    const queue = (await backend()).queue(evalQueueName(profileKey(profile())));
    await queue.removeGlobalRateLimit();
    await queue.close();
    expect(b.results.every((r) => r.status === 'succeeded')).toBe(true);
    const t429 = calls.find((c) => c.limited)?.at ?? 0;
    // Only the call already in flight on the other worker may start within the pause; without
    // the shared pause that worker would start its next items at once. (A lower bound on time
    // only: a slow machine makes the pause look longer, never shorter.)
    const during = calls.filter((c) => !c.limited && c.at < t429 + 700);
    expect(calls.length).toBeGreaterThanOrEqual(5);
    expect(during.length).toBeLessThanOrEqual(1);
  });

  it('sends a long input once per batch, by hash, and the worker puts it back before the run', async () => {
    mock.reset();
    mock.setResponder(() => ({ content: { answer: 'Within 60 days.' } }));
    const long = `Section 1869. ${'The appeal must be filed within the period. '.repeat(120)}`;
    const b = await batch(3, {
      itemsFor: () => answerDataset(3).items.map((item) => ({ ...item, inputs: { question: `${long} ${String(item.inputs.question)}` } })),
    });
    const queue = (await backend()).queue(evalQueueName(profileKey(profile())));
    await until(async () => (await queue.getJobCounts('wait')).wait === 3, 'the jobs to be queued');
    const [job] = await queue.getJobs(['wait'], 0, 0);
    const data = job?.data as JobData;
    expect(Object.keys(data.item.inputs)).toEqual([]);
    expect(Object.keys(data.inputTexts ?? {})).toEqual(['question']);
    expect(JSON.stringify(data)).not.toContain('Section 1869.');
    await worker(2);
    await b.run;
    await stopWorkers();
    await queue.close();
    expect(b.results.every((r) => r.status === 'succeeded')).toBe(true);
    expect(mock.requests).toHaveLength(3);
    for (const r of mock.requests) expect(JSON.stringify(r.body)).toContain(long.slice(0, 400));
  });

  it('adds a large batch in chunks, and adding it again adds nothing', async () => {
    const queue = (await backend()).queue('seamscope-eval-chunk-test');
    const sizes: number[] = [];
    const spy = { addBulk: (jobs: Parameters<typeof queue.addBulk>[0]) => (sizes.push(jobs.length), queue.addBulk(jobs)) };
    const data = (i: number): JobData => ({ format: JOB_FORMAT, version: 1, batchId: 'chunks', profileKey: '00000000000000', runId: `r${i}`, variant: { name: 'v', kind: 'chain', chainHash: '00000000000000' }, item: { id: `i${i}`, inputs: {}, expected: {} } });
    const jobs = Array.from({ length: 25 }, (_, i) => ({ name: 'chunks', data: data(i), opts: { jobId: `r${i}` } }));
    expect(await enqueueInChunks(spy, jobs, 10)).toBe(3);
    expect(sizes).toEqual([10, 10, 5]);
    await enqueueInChunks(spy, jobs, 10);
    expect((await queue.getJobCounts('wait')).wait).toBe(25);
    await queue.obliterate({ force: true });
    await queue.close();
  });
});
