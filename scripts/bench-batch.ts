/**
 * Benchmark: an eval handed to BullMQ workers on Redis, against the in-process eval, in the
 * same run, on the mock model server (real HTTP) at 50 ms per call with 0.2 % permanent
 * failures (a 400 for those items, every time) and 5 % transient ones (a 503 with
 * retry-after-ms: 50 on an item's first call). Prints figures; it asserts nothing.
 *
 *   npm run bench:batch [-- --items 2000 --workers 2 --concurrency 8 --kill-items 400]
 *
 * - throughput (workers and the in-process eval over the CLI's node:http transport, as
 *   `seamscope worker` and `seamscope eval` run): items/s of the batch (2 worker processes × concurrency 8, a coordinator
 *   collecting results and checking every run file) as a fraction of the ideal, 16 slots /
 *   50 ms = 320 items/s (target ≥ 0.8); and the in-process eval (runEval, concurrency 16) on the
 *   same items, as items/s and the same fraction.
 * - kill: a second batch, one worker killed with SIGKILL a quarter of the way through: items
 *   lost (should be 0) and items whose model was called twice (at most the killed worker's
 *   in-flight jobs, its concurrency).
 * - postgres: the same batch on BullMQ's PostgreSQL backend (Debian PostgreSQL 15, when
 *   present; --no-postgres skips it), as items/s and the fraction.
 * Ends with JSON lines: {"bench":"batch",…} and {"bench":"batch-postgres",…}
 *
 * The mock runs in a process of its own, as an endpoint would (`--mock-in-process` puts it in the
 * coordinator's, as earlier figures were measured).
 *
 * Run through `npm run bench:batch`, which bundles this file with esbuild (bullmq, ioredis and
 * pg left external, resolved from node_modules) and runs it on plain Node; the workers are the
 * same bundle started again with --worker, as separate processes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { forkMockProcess } from './bench/mock-process.ts';
import { openBackend, parseQueueUrl, profileKey, runBatch, startBatchWorker } from '../src/batch/index.ts';
import { runEval, type EvalVariant, type ItemResult } from '../src/eval/index.ts';
import { createProviderForProfile, runModelSettings } from '../src/providers/profiles.ts';
import { stepRegistry } from '../src/steps/index.ts';
import { answerChain, answerDataset, itemOfPrompt, mockProfile } from '../src/testing/batch-fixtures.ts';
import { createMockModelServer, type MockModelServer } from '../src/testing/mock-server.ts';
import { postgresAvailable, startPostgresServer } from '../src/testing/postgres-server.ts';
import { startRedisServer } from '../src/testing/redis-server.ts';
import { createMemoryRunRepository } from '../src/trace/index.ts';
import { createNodeFetch } from '../src/cli/node-fetch.ts';

const argv = process.argv.slice(2);
const opt = (name: string, fallback: number) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
};
const arg = (name: string) => argv[argv.indexOf(`--${name}`) + 1] ?? '';
const ITEMS = opt('items', 2000);
const WORKERS = opt('workers', 2);
const CONCURRENCY = opt('concurrency', 8);
const KILL_ITEMS = opt('kill-items', 400);
const CALL_MS = 50;
const countTokens = (t: string) => Math.ceil(t.length / 4);
const MOCK = { url: '', pid: 0 };

if (argv.includes('--mock-process')) {
  // The endpoint, in a process of its own as it would be on its own machine: the coordinator's
  // bursts of work no longer delay its 50 ms answers. Told what to do over IPC.
  const server = await createMockModelServer();
  const send = (m: unknown) => process.send?.(m);
  process.on('message', (m: { type: string }) => {
    if (m.type === 'faulty' || m.type === 'plain') {
      server.reset();
      if (m.type === 'faulty') faultyResponder(server);
      else server.setResponder(() => ({ content: { answer: 'Within 60 days.' }, delayMs: CALL_MS }));
      send({ type: 'done' });
    } else if (m.type === 'calls') send({ type: 'calls', calls: [...callsPerItem(server)] });
    else if (m.type === 'close') void server.close().then(() => process.exit(0));
  });
  send({ type: 'ready', url: server.url });
} else if (argv.includes('--worker')) {
  // A worker process: serves the queue until SIGTERM (or dies by SIGKILL, in the kill round).
  const parsed = parseQueueUrl(arg('queue'));
  if (!parsed.ok) throw new Error(parsed.message);
  const profile = mockProfile(arg('mock'));
  const backend = await openBackend(parsed.target);
  const worker = startBatchWorker({
    backend, profileKey: profileKey(profile), provider: createProviderForProfile(profile, {}), model: runModelSettings(profile),
    registry: stepRegistry, concurrency: CONCURRENCY, lockDurationMs: 2_000, countTokens, fetch: createNodeFetch(),
  });
  process.stdout.write('ready\n');
  process.once('SIGTERM', () => void worker.close().then(() => backend.close()).then(() => process.exit(0)));
} else {
  await bench();
}

/** The mock model server the bench talks to, in its own process (default) or in this one (--mock-in-process). */
interface MockHandle {
  url: string;
  pid: number;
  faulty(): Promise<void>;
  plain(): Promise<void>;
  callsPerItem(): Promise<Map<number, number>>;
  close(): Promise<void>;
}

function callsPerItem(server: MockModelServer): Map<number, number> {
  const calls = new Map<number, number>();
  for (const r of server.requests) {
    const i = itemOfPrompt(JSON.stringify(r.body));
    calls.set(i, (calls.get(i) ?? 0) + 1);
  }
  return calls;
}

async function startMock(): Promise<MockHandle> {
  if (argv.includes('--mock-in-process')) {
    const server = await createMockModelServer();
    return {
      url: server.url, pid: process.pid,
      faulty: async () => {
        server.reset();
        faultyResponder(server);
      },
      plain: async () => {
        server.reset();
        server.setResponder(() => ({ content: { answer: 'Within 60 days.' }, delayMs: CALL_MS }));
      },
      callsPerItem: async () => callsPerItem(server),
      close: () => server.close(),
    };
  }
  const { url, pid, reply, close } = await forkMockProcess(fileURLToPath(import.meta.url), '--mock-process');
  return {
    url, pid,
    faulty: async () => void (await reply('done', { type: 'faulty' })),
    plain: async () => void (await reply('done', { type: 'plain' })),
    callsPerItem: async () => new Map((await reply<{ calls: [number, number][] }>('calls', { type: 'calls' })).calls),
    close,
  };
}

/** 0.2 % of items fail for good, 5 % fail once and then answer. */
function faultyResponder(server: MockModelServer) {
  const seen = new Map<number, number>();
  server.setResponder((call) => {
    const i = itemOfPrompt(call.messages.map((m) => m.content).join('\n'));
    const n = (seen.get(i) ?? 0) + 1;
    seen.set(i, n);
    if (i % 500 === 11) return { fault: 'status', status: 400 };
    if (i % 20 === 3 && n === 1) return { fault: 'status', status: 503, headers: { 'retry-after-ms': String(CALL_MS) } };
    return { content: { answer: 'Within 60 days.' }, delayMs: CALL_MS };
  });
}

function startWorkerProcess(queue: string, mock: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--worker', '--queue', queue, '--mock', mock, '--concurrency', String(CONCURRENCY)], { stdio: ['ignore', 'pipe', 'inherit'] });
  process.once('exit', () => child.kill('SIGKILL'));
  return new Promise((resolve, reject) => {
    child.stdout?.once('data', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`a worker exited (${code}) before it was ready`)));
  });
}

async function bench() {
  const redis = await startRedisServer();
  const mock = await startMock();
  MOCK.url = mock.url;
  MOCK.pid = mock.pid === process.pid ? 0 : mock.pid;
  const profile = mockProfile(mock.url);
  const variant: EvalVariant = { name: 'bench', kind: 'chain', chain: answerChain() };
  const parsed = parseQueueUrl(redis.url);
  if (!parsed.ok) throw new Error(parsed.message);
  const ideal = (WORKERS * CONCURRENCY * 1000) / CALL_MS;
  try {
    // Warm-up: the mock, the engine's JIT and the sockets, with a small in-process eval.
    await mock.faulty();
    await inProcess(mock.url, 100);

    await mock.faulty();
    const cpuLocal = cpuSeconds(process.pid);
    const cpuLocalMock = mock.pid === process.pid ? 0 : cpuSeconds(mock.pid);
    const local = await inProcess(mock.url, ITEMS);
    console.log(`in-process eval: CPU ms per item: eval ${(((cpuSeconds(process.pid) - cpuLocal) * 1000) / ITEMS).toFixed(1)}${mock.pid === process.pid ? ' (with the mock)' : `, mock ${(((cpuSeconds(mock.pid) - cpuLocalMock) * 1000) / ITEMS).toFixed(1)}`}`);

    await mock.faulty();
    const workers = await Promise.all(Array.from({ length: WORKERS }, () => startWorkerProcess(redis.url, mock.url)));
    const backend = await openBackend(parsed.target);
    const batchRate = await batchRound(backend, 'redis', 'bench-batch', workers.map((w) => w.pid ?? 0), redis.pid);

    console.log(`in-process eval, concurrency ${WORKERS * CONCURRENCY}: ${local.rate.toFixed(0)} items/s = ${(local.rate / ideal).toFixed(2)} of the ideal; ${local.failed} failed; batch ÷ in-process = ${(batchRate / local.rate).toFixed(2)}`);

    // The kill round: a quarter of the way in, one worker dies without a word.
    await mock.plain();
    const killDataset = answerDataset(KILL_ITEMS);
    const killResults: ItemResult[] = [];
    let killed = false;
    const t1 = performance.now();
    await runBatch({
      backend, batchId: 'bench-kill', profileKey: profileKey(profile), variants: [variant], itemsFor: () => killDataset.items, done: new Set(),
      runIdFor: (_v, item) => `bench-kill-${item.id}`,
      onResult: async (r) => {
        killResults.push(r);
        if (!killed && killResults.length >= KILL_ITEMS / 4) {
          killed = true;
          workers[0]?.kill('SIGKILL');
        }
      },
    });
    const killSeconds = (performance.now() - t1) / 1000;
    const calls = await mock.callsPerItem();
    const twice = [...calls.values()].filter((n) => n > 1).length;
    const lost = KILL_ITEMS - new Set(killResults.map((r) => r.itemId)).size;
    console.log(`kill -9 of one worker (concurrency ${CONCURRENCY}) at ${KILL_ITEMS / 4}/${KILL_ITEMS} items: ${lost} lost, ${twice} item(s) ran twice, ${killSeconds.toFixed(1)} s in all (its jobs wait out their 2 s lock)`);
    console.log(JSON.stringify({
      bench: 'batch', items: ITEMS, workers: WORKERS, concurrency: CONCURRENCY, callMs: CALL_MS, idealPerS: ideal,
      batchPerS: Number(batchRate.toFixed(1)), batchFraction: Number((batchRate / ideal).toFixed(3)),
      inProcessPerS: Number(local.rate.toFixed(1)), inProcessFraction: Number((local.rate / ideal).toFixed(3)),
      kill: { items: KILL_ITEMS, lost, ranTwice: twice },
    }));
    for (const w of workers.slice(1)) w.kill('SIGTERM');
    await backend.close();

    // The same batch on BullMQ's PostgreSQL backend, when Debian's PostgreSQL 15 is here.
    if (postgresAvailable() && !argv.includes('--no-postgres')) {
      const pg = await startPostgresServer();
      try {
        const pgTarget = parseQueueUrl(pg.url);
        if (!pgTarget.ok) throw new Error(pgTarget.message);
        const pgBackend = await openBackend(pgTarget.target);
        await mock.faulty();
        const pgWorkers = await Promise.all(Array.from({ length: WORKERS }, () => startWorkerProcess(pg.url, mock.url)));
        const pgRate = await batchRound(pgBackend, 'postgres', 'bench-pg', pgWorkers.map((w) => w.pid ?? 0));
        console.log(JSON.stringify({ bench: 'batch-postgres', items: ITEMS, perS: Number(pgRate.toFixed(1)), fraction: Number((pgRate / ideal).toFixed(3)) }));
        for (const w of pgWorkers) w.kill('SIGTERM');
        await Promise.all(pgWorkers.map((w) => new Promise((r) => (w.exitCode !== null ? r(null) : w.once('exit', r)))));
        await pgBackend.close();
      } finally {
        await pg.stop();
      }
    }
  } finally {
    await mock.close();
    await redis.stop();
  }
}

/** CPU seconds a process has used so far (Linux /proc; 0 elsewhere). */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** One full batch on `backend` with the faulty mock; items/s, printed, with where the CPU went. */
async function batchRound(backend: Awaited<ReturnType<typeof openBackend>>, label: string, batchId: string, workerPids: readonly number[] = [], serverPid = 0): Promise<number> {
  const cpu0 = { coordinator: cpuSeconds(process.pid), workers: workerPids.map(cpuSeconds), server: serverPid ? cpuSeconds(serverPid) : 0, mock: MOCK.pid ? cpuSeconds(MOCK.pid) : 0 };
  const profile = mockProfile(MOCK.url);
  const variant: EvalVariant = { name: 'bench', kind: 'chain', chain: answerChain() };
  const dataset = answerDataset(ITEMS);
  const ideal = (WORKERS * CONCURRENCY * 1000) / CALL_MS;
  const results: ItemResult[] = [];
  // With --mock-in-process the mock's 50 ms timers run on this event loop: its delay is added to every call.
  const lag = monitorEventLoopDelay({ resolution: 5 });
  lag.enable();
  const t0 = performance.now();
  const summary = await runBatch({
    backend, batchId, profileKey: profileKey(profile), variants: [variant], itemsFor: () => dataset.items, done: new Set(),
    runIdFor: (_v, item) => `${batchId}-${item.id}`, onResult: async (r) => void results.push(r),
  });
  const rate = ITEMS / ((performance.now() - t0) / 1000);
  lag.disable();
  const lat = results.map((r) => r.latencyMs).sort((a, b) => a - b);
  console.log(`run latency in the worker: p50 ${lat[Math.floor(lat.length / 2)]} ms, p95 ${lat[Math.floor(lat.length * 0.95)]} ms, mean ${(lat.reduce((a, b) => a + b, 0) / lat.length).toFixed(1)} ms`);
  const failed = results.filter((r) => r.status === 'failed').length;
  const workerCpu = workerPids.reduce((n, pid, i) => n + cpuSeconds(pid) - (cpu0.workers[i] ?? 0), 0);
  console.log(`batch on ${label}: ${ITEMS} items on ${WORKERS} workers × ${CONCURRENCY}: ${rate.toFixed(0)} items/s = ${(rate / ideal).toFixed(2)} of the ideal ${ideal}/s (target ≥ 0.8); ${failed} failed (permanent), ${summary.restarts} restarted; CPU ms per item: workers ${((workerCpu * 1000) / ITEMS).toFixed(1)}, ${MOCK.pid ? 'coordinator' : 'coordinator + mock'} ${(((cpuSeconds(process.pid) - cpu0.coordinator) * 1000) / ITEMS).toFixed(1)}${MOCK.pid ? `, mock ${(((cpuSeconds(MOCK.pid) - cpu0.mock) * 1000) / ITEMS).toFixed(1)}` : ''}${serverPid ? `, ${label} ${(((cpuSeconds(serverPid) - cpu0.server) * 1000) / ITEMS).toFixed(1)}` : ''}; coordinator event-loop delay p50 ${(lag.percentile(50) / 1e6).toFixed(1)} ms, p99 ${(lag.percentile(99) / 1e6).toFixed(1)} ms`);
  return rate;
}

async function inProcess(url: string, n: number): Promise<{ rate: number; failed: number }> {
  const profile = mockProfile(url);
  const repo = createMemoryRunRepository();
  let failed = 0;
  const t0 = performance.now();
  await runEval({
    variants: [{ name: 'bench', kind: 'chain', chain: answerChain() }], dataset: answerDataset(n), provider: createProviderForProfile(profile, {}),
    model: runModelSettings(profile), repo, concurrency: WORKERS * CONCURRENCY, countTokens, registry: stepRegistry, fetch: createNodeFetch(),
    onResult: async (r, run) => {
      if (r.status === 'failed') failed++;
      await repo.deleteRun(run.meta.id);
    },
  });
  return { rate: n / ((performance.now() - t0) / 1000), failed };
}
