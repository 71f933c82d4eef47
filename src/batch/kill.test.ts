import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseArgs } from '../cli/args.ts';
import { main } from '../cli/main.ts';
import { workerCommand, workerOptions } from '../cli/worker.ts';
import { answerChain, answerDataset, itemOfPrompt } from '../testing/batch-fixtures.ts';
import { captureIo } from '../testing/capture-io.ts';
import { startCli, type CliProcess } from '../testing/cli-process.ts';
import { createMockModelServer, type MockModelServer } from '../testing/mock-server.ts';
import { REDIS_MISSING, redisContents, redisServerPath, startRedisServer, type RedisServer } from '../testing/redis-server.ts';

/**
 * Processes dying mid-batch, for real: `seamscope worker` and `seamscope eval --queue` as
 * processes of their own, killed with SIGKILL (no chance to clean up), against redis-server,
 * the mock model server and a webhook receiver, all on 127.0.0.1.
 */
const hasRedis = redisServerPath() !== null;
if (!hasRedis) console.warn(`skipping the kill tests: ${REDIS_MISSING}`);

const KEY = 'sk-kill-test-key-3Jw8';
let redis: RedisServer;
let mock: MockModelServer;
let dir: string;
const posts: { key: string | undefined; runId: string }[] = [];
const hook = createServer((req: IncomingMessage, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    posts.push({ key: req.headers['idempotency-key'] as string | undefined, runId: (JSON.parse(body) as { run_id: string }).run_id });
    // A slow receiver: a worker killed now has posted but not heard back, so its item posts again.
    setTimeout(() => res.writeHead(200).end('ok'), hookDelayMs);
  });
});
let hookOrigin = '';
let hookDelayMs = 0;
const procs: CliProcess[] = [];

beforeAll(async () => {
  if (!hasRedis) return;
  redis = await startRedisServer();
  mock = await createMockModelServer({ apiKey: KEY, idleExitMs: 120_000 });
  await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
  hookOrigin = `http://127.0.0.1:${(hook.address() as AddressInfo).port}`;
  dir = await mkdtemp(join(tmpdir(), 'seamscope-kill-'));
});
afterAll(async () => {
  if (!hasRedis) return;
  for (const p of procs) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  await new Promise<void>((r) => hook.close(() => r()));
  await mock.close();
  await redis.stop();
  await rm(dir, { recursive: true, force: true });
});

const endpointArgs = () => ['--endpoint', `${mock.url}/v1`, '--model', 'mock-model'];
async function writeBatchFiles(name: string, items: number, webhook: boolean) {
  const chainPath = join(dir, `${name}.chain.json`);
  await writeFile(chainPath, JSON.stringify(answerChain(webhook ? { webhook: `${hookOrigin}/hook` } : {})));
  const datasetPath = join(dir, `${name}.dataset.jsonl`);
  await writeFile(datasetPath, `${answerDataset(items).items.map((i) => JSON.stringify(i)).join('\n')}\n`);
  return { chainPath, datasetPath, out: join(dir, `${name}-out`) };
}
const startWorker = (extra: string[] = []) => {
  const p = startCli(['worker', '--queue', redis.url, ...endpointArgs(), '--lock-ms', '1500', ...extra], { SEAMSCOPE_API_KEY: KEY });
  procs.push(p);
  return p;
};
/** Model requests per item, from the prompts the mock received. */
const requestsPerItem = () => {
  const counts = new Map<number, number>();
  for (const r of mock.requests) {
    const i = itemOfPrompt(JSON.stringify(r.body));
    counts.set(i, (counts.get(i) ?? 0) + 1);
  }
  return counts;
};
async function resultLines(out: string): Promise<{ itemId: string; status: string }[]> {
  const lines = (await readFile(join(out, 'results.jsonl'), 'utf8')).split('\n').filter((l) => l.trim());
  return lines.flatMap((l) => {
    try {
      return [JSON.parse(l) as { itemId: string; status: string }];
    } catch {
      return [];
    }
  });
}
async function until(check: () => boolean | Promise<boolean>, what: string) {
  for (let i = 0; i < 1200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`gave up waiting for ${what}`);
}

describe.skipIf(!hasRedis)('killing processes mid-batch', () => {
  it('kill -9 of a worker: every item completes once, only its in-flight items run twice, each webhook keeps its idempotency key', async () => {
    mock.reset();
    posts.length = 0;
    mock.setResponder(() => ({ content: { answer: 'Within 60 days.' }, delayMs: 100 }));
    hookDelayMs = 300;
    const files = await writeBatchFiles('kill-worker', 30, true);
    const a = startWorker(['--concurrency', '3', '--allow-webhook', hookOrigin]);
    const b = startWorker(['--concurrency', '3', '--allow-webhook', hookOrigin]);
    await Promise.all([a.waitFor(/worker on /), b.waitFor(/worker on /)]);

    const io = captureIo();
    const coordinator = main(['eval', files.chainPath, '--dataset', files.datasetPath, ...endpointArgs(), '--allow-webhook', hookOrigin, '--queue', redis.url, '--out', files.out, '--json'], io.io);
    // Mid-batch: some items posted, both workers holding jobs.
    await until(() => posts.length >= 6, 'six webhook posts');
    // The workers' key (from their environment) is nowhere in what the batch keeps in Redis.
    const midway = await redisContents(redis.port);
    expect(midway).toContain('seamscope.batch-job');
    expect(midway).not.toContain(KEY);
    a.child.kill('SIGKILL');
    expect(await a.exit).toBe(null);
    expect(await coordinator).toBe(0);
    b.child.kill('SIGTERM');
    expect(await b.exit).toBe(0);

    const results = await resultLines(files.out);
    expect(results.map((r) => r.itemId).sort()).toEqual(answerDataset(30).items.map((i) => i.id).sort());
    expect(results.every((r) => r.status === 'succeeded')).toBe(true);
    expect(await readdir(join(files.out, 'runs', 'batch-hook'))).toHaveLength(30);
    const report = JSON.parse(io.out.at(-1) ?? '{}') as { variants: { n: number; accuracy: number }[] };
    expect(report.variants[0]).toMatchObject({ n: 30, accuracy: 1 });

    hookDelayMs = 0;
    // At most the killed worker's three in-flight items ran twice.
    const twice = [...requestsPerItem().values()].filter((n) => n > 1).length;
    expect(twice).toBeLessThanOrEqual(3);
    // Every item posted, and every post for an item carried that item's one idempotency key.
    const keysByRun = new Map<string, Set<string | undefined>>();
    for (const p of posts) keysByRun.set(p.runId, (keysByRun.get(p.runId) ?? new Set()).add(p.key));
    expect(keysByRun.size).toBe(30);
    for (const keys of keysByRun.values()) expect(keys.size).toBe(1);
    const postedTwice = [...keysByRun.keys()].filter((id) => posts.filter((p) => p.runId === id).length > 1).length;
    expect(postedTwice).toBeLessThanOrEqual(3);
    console.log(`kill -9 of a worker: ${twice} item(s) called the model twice, ${postedTwice} posted twice (same key); none lost`);
  }, 90_000);

  it('kill -9 of the coordinator: the same command reattaches to the batch by id and nothing runs twice', async () => {
    mock.reset();
    mock.setResponder(() => ({ content: { answer: 'Within 60 days.' }, delayMs: 100 }));
    const files = await writeBatchFiles('kill-coordinator', 20, false);
    let stop: () => void = () => undefined;
    const stopped = new Promise<void>((r) => (stop = r));
    const worker = workerCommand(parseArgs(['--queue', redis.url, ...endpointArgs(), '--concurrency', '2'], workerOptions, 'worker'), { ...captureIo().io, env: { SEAMSCOPE_API_KEY: KEY } }, stopped);

    const args = ['eval', files.chainPath, '--dataset', files.datasetPath, ...endpointArgs(), '--queue', redis.url, '--out', files.out, '--json'];
    const first = startCli(args);
    procs.push(first);
    await until(async () => (await resultLines(files.out).catch(() => [])).length >= 4, 'four results');
    first.child.kill('SIGKILL');
    await first.exit;
    const batchId = /batch (eval-[0-9a-f]+) on /.exec(first.err)?.[1];
    expect(batchId).toBeDefined();
    // The worker goes on meanwhile: some jobs finish with no coordinator listening.
    await until(() => mock.requests.length >= 10, 'more items run');

    const second = startCli(args);
    procs.push(second);
    expect(await second.exit).toBe(0);
    expect(second.err).toContain(`batch ${batchId as string} on `);
    expect(second.err).toContain('(reattaching)');
    expect(second.err).toMatch(/resuming: \d+ item run\(s\) already in/);
    stop();
    expect(await worker).toBe(0);

    const results = await resultLines(files.out);
    const ids = results.map((r) => r.itemId);
    expect(new Set(ids).size).toBe(20);
    expect(ids).toHaveLength(20);
    expect(JSON.parse(second.out.trim().split('\n').at(-1) ?? '{}')).toMatchObject({ variants: [{ n: 20, accuracy: 1 }] });
    // Reattaching re-adds only what is missing, and a job id already queued or finished adds nothing: no item ran twice.
    expect([...requestsPerItem().values()].every((n) => n === 1)).toBe(true);
    expect(requestsPerItem().size).toBe(20);
  }, 90_000);
});
