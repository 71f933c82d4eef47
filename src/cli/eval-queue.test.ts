import { cp, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerChain } from '../testing/batch-fixtures.ts';
import { captureIo } from '../testing/capture-io.ts';
import { REDIS_MISSING, redisServerPath, startRedisServer, type RedisServer } from '../testing/redis-server.ts';
import { main } from './main.ts';
import { workerCommand, workerOptions } from './worker.ts';
import { parseArgs } from './args.ts';

/**
 * `eval --queue` against a real redis-server with a real worker: the same table and JSON as
 * the local eval, the same run files, and the worker's own key never in Redis.
 */
const hasRedis = redisServerPath() !== null;
if (!hasRedis) console.warn(`skipping the queue eval tests: ${REDIS_MISSING}`);

let dir: string;
let redis: RedisServer;
const demo = new URL('../../public/demo/', import.meta.url);
const items = [
  { id: 'redetermination', inputs: { question: 'How many days do I have to ask for a redetermination?' }, expected: { facts: ['120-day period'] } },
  { id: 'reconsideration', inputs: { question: 'How many days do I have to request a reconsideration after the redetermination?' }, expected: { facts: ['180-day period'] } },
  { id: 'hearing', inputs: { question: 'How long do I have to ask for a hearing?' }, expected: { facts: ['60 days'] } },
];

beforeAll(async () => {
  if (!hasRedis) return;
  redis = await startRedisServer();
  dir = await mkdtemp(join(tmpdir(), 'seamscope-eval-queue-'));
  await mkdir(join(dir, 'documents'));
  for (const f of ['summarise-then-answer.chain.json', 'select-quotes-then-answer.chain.json']) await cp(new URL(f, demo), join(dir, f));
  await cp(new URL('documents/42-USC-1395ff.md', demo), join(dir, 'documents/42-USC-1395ff.md'));
  await writeFile(join(dir, 'q.dataset.jsonl'), `${items.map((i) => JSON.stringify(i)).join('\n')}\n`);
});

afterAll(async () => {
  if (!hasRedis) return;
  await redis.stop();
  await rm(dir, { recursive: true, force: true });
});

/** A worker in this process, stopped by the returned function. */
function startWorker(args: string[], env: Record<string, string> = {}) {
  let stop: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const io = captureIo();
  const exit = workerCommand(parseArgs(['--queue', redis.url, ...args], workerOptions, 'worker'), { ...io.io, env }, stopped);
  return { io, stop: async () => (stop(), await exit) };
}

const chains = () => [join(dir, 'summarise-then-answer.chain.json'), join(dir, 'select-quotes-then-answer.chain.json')];
/** The report without what differs by design (where the files went, and timings). */
const comparable = (text: string) => JSON.parse(text, (key, value: unknown) => (key === 'out' || key === 'p50Ms' || key === 'p95Ms' ? undefined : value)) as unknown;

describe.skipIf(!hasRedis)('seamscope eval --queue', () => {
  it('prints the same JSON as a local eval and writes the same run files, the worker running every item', async () => {
    const local = captureIo();
    expect(await main(['eval', ...chains(), '--dataset', join(dir, 'q.dataset.jsonl'), '--controls', '--out', join(dir, 'local'), '--json'], local.io)).toBe(0);

    const worker = startWorker(['--concurrency', '4']);
    const queued = captureIo();
    const code = await main(['eval', ...chains(), '--dataset', join(dir, 'q.dataset.jsonl'), '--controls', '--out', join(dir, 'queued'), '--json', '--queue', redis.url], queued.io);
    expect(await worker.stop()).toBe(0);
    expect(queued.err.join('\n')).toContain('workers: seamscope worker --queue redis://127.0.0.1:');
    expect(code).toBe(0);
    expect(comparable(queued.out.at(-1) ?? '{}')).toEqual(comparable(local.out.at(-1) ?? '{}'));
    expect(worker.io.err.some((l) => /stopped: \d+ job\(s\) done, 0 failed/.test(l))).toBe(true);

    for (const variant of await readdir(join(dir, 'local', 'runs'))) {
      expect((await readdir(join(dir, 'queued', 'runs', variant))).sort()).toEqual((await readdir(join(dir, 'local', 'runs', variant))).sort());
    }
    const lines = (await readFile(join(dir, 'queued', 'results.jsonl'), 'utf8')).trim().split('\n');
    const localLines = (await readFile(join(dir, 'local', 'results.jsonl'), 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(localLines.length);
  }, 60_000);

  it('refuses a bad --queue or --rate-limit before running anything', async () => {
    for (const args of [['--queue', 'http://127.0.0.1:1'], ['--queue', 'redis://:secret@127.0.0.1:6379'], ['--rate-limit', '5/s'], ['--queue', redis.url, '--rate-limit', 'fast']]) {
      const io = captureIo();
      expect(await main(['eval', chains()[0] as string, '--dataset', join(dir, 'q.dataset.jsonl'), '--out', join(dir, 'bad'), ...args], io.io)).toBe(2);
    }
    const io = captureIo();
    expect(await main(['worker'], io.io)).toBe(2);
    expect(io.err[0]).toContain('worker needs --queue');
  });

  it('runs a chain with a webhook only when --allow-webhook names its origin (it posts once per item)', async () => {
    const hook = join(dir, 'hook.chain.json');
    await writeFile(hook, JSON.stringify(answerChain({ webhook: 'http://127.0.0.1:9/hook' })));
    const refused = captureIo();
    expect(await main(['eval', hook, '--dataset', join(dir, 'q.dataset.jsonl'), '--out', join(dir, 'hook'), '--queue', redis.url], refused.io)).toBe(2);
    expect(refused.err[0]).toContain('the chain posts to a webhook (http://127.0.0.1:9), once per item in an eval; name each origin with --allow-webhook');
    await expect(readdir(join(dir, 'hook'))).rejects.toThrow();
  });
});
