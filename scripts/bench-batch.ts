/**
 * Benchmark: an eval handed to BullMQ workers on Redis, against the in-process eval and a bare BullMQ queue, in the
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
 * - bare: beside each backend's batch, a bare BullMQ round on the same queue server: the same
 *   job count, job and worker options, 2 processes × 8, each job only waiting 50 ms (the ideal's
 *   whole job; no engine, no model server, no results read back), and the ratio batch ÷ bare
 *   from the same run (the machine is shared: the ratio holds where the absolute figures move).
 * - postgres: the same batch on BullMQ's PostgreSQL backend (Debian PostgreSQL 15, when
 *   present; --no-postgres skips it, --postgres-only runs it alone), as items/s and the
 *   fraction, with the CPU of every PostgreSQL process. The server is the tests' throwaway one
 *   (fsync, synchronous_commit and full_page_writes off); --pg-durable turns those on.
 *   --pg-statements adds pg_stat_statements: statements per job and where the server's time goes.
 * - --worker-cpu-prof DIR: the batch workers run under node --cpu-prof and write their profiles to
 *   DIR when they stop (not the one the kill round kills); the bench prints each round's span on
 *   the profiles' clock, to cut them to it.
 * - CPU: each round prints the CPU ms per item of each of its processes (the workers' kernel
 *   share apart), and of all of them together with the ceiling it puts on throughput on this
 *   machine's cores: the steadiest figure on a shared machine, where the throughput itself moves
 *   with everyone else's load (cpuMsPerItem and bareCpuMsPerJob in the JSON lines).
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
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { forkMockProcess } from './bench/mock-process.ts';
import { batchJobOptions, batchWorkerOptions, openBackend, parseQueueUrl, profileKey, runBatch, startBatchWorker, type QueueBackend } from '../src/batch/index.ts';
import { STATEMENT_SETTINGS, statementCounter, type StatementCounter } from './bench/pg-statements.ts';
import { runEval, type EvalVariant, type ItemResult } from '../src/eval/index.ts';
import { createProviderForProfile, runModelSettings } from '../src/providers/profiles.ts';
import { stepRegistry } from '../src/steps/index.ts';
import { answerChain, answerDataset, itemOfPrompt, mockProfile } from '../src/testing/batch-fixtures.ts';
import { createMockModelServer, type MockModelServer } from '../src/testing/mock-server.ts';
import { postgresAvailable, startPostgresServer, THROWAWAY_SETTINGS } from '../src/testing/postgres-server.ts';
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
/** Worker processes still running: killed if this process exits first. */
const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

/** The bare rounds' queue: plain BullMQ jobs that only wait CALL_MS, beside the eval's queue. */
const BARE_QUEUE = 'bench-bare';
/** A durable PostgreSQL (fsync, synchronous commit, full-page writes on), as a production queue runs. */
const DURABLE_SETTINGS = { fsync: 'on', synchronous_commit: 'on', full_page_writes: 'on' };

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
} else if (argv.includes('--bare-worker')) {
  // A bare BullMQ worker: each job is the ideal's whole job, CALL_MS of waiting, and returns a
  // few bytes. No engine, no model server; the same backend, worker options and concurrency.
  const parsed = parseQueueUrl(arg('queue'));
  if (!parsed.ok) throw new Error(parsed.message);
  const backend = await openBackend(parsed.target);
  const worker = backend.worker(BARE_QUEUE, async (job) => {
    await new Promise((resolve) => setTimeout(resolve, CALL_MS));
    return { item: (job.data as { item: number }).item };
  }, batchWorkerOptions(CONCURRENCY, 2_000));
  // A lock renewal that races its job's completion is reported as an error; the round counts finished jobs.
  worker.on('error', () => undefined);
  await worker.waitUntilReady();
  process.stdout.write('ready\n');
  process.once('SIGTERM', () => void worker.close().then(() => backend.close()).then(() => process.exit(0)));
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

function startWorkerProcess(queue: string, mock: string, kind: '--worker' | '--bare-worker' = '--worker'): Promise<ChildProcess> {
  // --worker-cpu-prof DIR: each batch worker writes a V8 CPU profile there when it exits (SIGTERM).
  const profile = kind === '--worker' && argv.includes('--worker-cpu-prof') ? ['--cpu-prof', '--cpu-prof-dir', arg('worker-cpu-prof')] : [];
  const child = spawn(process.execPath, [...profile, fileURLToPath(import.meta.url), kind, '--queue', queue, '--mock', mock, '--concurrency', String(CONCURRENCY)], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.add(child);
  child.once('exit', () => children.delete(child));
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

    // --postgres-only: the PostgreSQL rounds alone (for measuring that backend).
    if (!argv.includes('--postgres-only')) {
      await mock.faulty();
      const cpuLocal = cpuSeconds(process.pid);
      const cpuLocalMock = mock.pid === process.pid ? 0 : cpuSeconds(mock.pid);
      const local = await inProcess(mock.url, ITEMS);
      console.log(`in-process eval: CPU ms per item: eval ${(((cpuSeconds(process.pid) - cpuLocal) * 1000) / ITEMS).toFixed(1)}${mock.pid === process.pid ? ' (with the mock)' : `, mock ${(((cpuSeconds(mock.pid) - cpuLocalMock) * 1000) / ITEMS).toFixed(1)}`}`);

      await mock.faulty();
      const workers = await Promise.all(Array.from({ length: WORKERS }, () => startWorkerProcess(redis.url, mock.url)));
      const backend = await openBackend(parsed.target);
      const batchRedis = await batchRound(backend, 'redis', 'bench-batch', workers.map((w) => w.pid ?? 0), redis.pid);
      const bareRedisRound = await bareRound(backend, redis.url, 'redis', redis.pid);
      const batchRate = batchRedis.rate;
      const bareRedis = bareRedisRound.rate;
      console.log(`redis: batch ÷ bare BullMQ = ${(batchRate / bareRedis).toFixed(2)} (bare ${(bareRedis / ideal).toFixed(2)} of the ideal, in the same run); CPU per item ${batchRedis.cpuMs.toFixed(1)} ms against bare's ${bareRedisRound.cpuMs.toFixed(1)}`);

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
        bareFraction: Number((bareRedis / ideal).toFixed(3)), batchOverBare: Number((batchRate / bareRedis).toFixed(3)),
        inProcessPerS: Number(local.rate.toFixed(1)), inProcessFraction: Number((local.rate / ideal).toFixed(3)),
        cpuMsPerItem: Number(batchRedis.cpuMs.toFixed(2)), bareCpuMsPerJob: Number(bareRedisRound.cpuMs.toFixed(2)),
        kill: { items: KILL_ITEMS, lost, ranTwice: twice },
      }));
      for (const w of workers.slice(1)) w.kill('SIGTERM');
      await backend.close();
    }

    // The same batch on BullMQ's PostgreSQL backend, when Debian's PostgreSQL 15 is here.
    if (postgresAvailable() && !argv.includes('--no-postgres')) {
      const durable = argv.includes('--pg-durable');
      const settings = { ...(durable ? DURABLE_SETTINGS : {}), ...(argv.includes('--pg-statements') ? STATEMENT_SETTINGS : {}) };
      const pg = await startPostgresServer({ settings });
      let stats: StatementCounter | null = null;
      try {
        const shown = Object.entries({ ...THROWAWAY_SETTINGS, ...(durable ? DURABLE_SETTINGS : {}) }).map(([k, v]) => `${k}=${v}`).join(' ');
        console.log(`postgres: Debian's PostgreSQL 15 on 127.0.0.1, ${shown}${durable ? ' (durable, --pg-durable)' : ' (the tests\' throwaway server: nothing flushed to disk; --pg-durable for a durable one)'}`);
        const pgTarget = parseQueueUrl(pg.url);
        if (!pgTarget.ok) throw new Error(pgTarget.message);
        const pgBackend = await openBackend(pgTarget.target);
        stats = argv.includes('--pg-statements') ? await statementCounter(pg.url) : null;
        await mock.faulty();
        const pgWorkers = await Promise.all(Array.from({ length: WORKERS }, () => startWorkerProcess(pg.url, mock.url)));
        await stats?.reset();
        const pgRound = await batchRound(pgBackend, 'postgres', 'bench-pg', pgWorkers.map((w) => w.pid ?? 0), pg.pid);
        const pgRate = pgRound.rate;
        for (const line of (await stats?.report(ITEMS)) ?? []) console.log(line);
        for (const w of pgWorkers) w.kill('SIGTERM');
        await Promise.all(pgWorkers.map(exited));
        await stats?.reset();
        const barePgRound = await bareRound(pgBackend, pg.url, 'postgres', pg.pid);
        const barePg = barePgRound.rate;
        for (const line of (await stats?.report(ITEMS)) ?? []) console.log(line);
        console.log(`postgres: batch ÷ bare BullMQ = ${(pgRate / barePg).toFixed(2)} (bare ${(barePg / ideal).toFixed(2)} of the ideal, in the same run); CPU per item ${pgRound.cpuMs.toFixed(1)} ms against bare's ${barePgRound.cpuMs.toFixed(1)}`);
        console.log(JSON.stringify({
          bench: 'batch-postgres', items: ITEMS, durable, perS: Number(pgRate.toFixed(1)), fraction: Number((pgRate / ideal).toFixed(3)),
          bareFraction: Number((barePg / ideal).toFixed(3)), batchOverBare: Number((pgRate / barePg).toFixed(3)),
          cpuMsPerItem: Number(pgRound.cpuMs.toFixed(2)), bareCpuMsPerJob: Number(barePgRound.cpuMs.toFixed(2)),
        }));
        await pgBackend.close();
      } finally {
        await stats?.close();
        await pg.stop();
      }
    }
  } finally {
    await mock.close();
    await redis.stop();
  }
}

function exited(child: ChildProcess): Promise<unknown> {
  return new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(null) : child.once('exit', resolve)));
}

/**
 * A bare BullMQ round on the same backend: ITEMS plain jobs (the batch's job options, a few
 * bytes of data) added 500 at a time, WORKERS bare worker processes × CONCURRENCY that each wait
 * CALL_MS; timed from the first add to the last job's finish (BullMQ's finishedOn), read once
 * the queue's counts say all are done. No results are read back. What the queue alone reaches
 * on this machine now, beside the batch's figure.
 */
async function bareRound(backend: QueueBackend, url: string, label: string, serverPid: number): Promise<Round> {
  const workers = await Promise.all(Array.from({ length: WORKERS }, () => startWorkerProcess(url, '', '--bare-worker')));
  const pids = workers.map((w) => w.pid ?? 0);
  const queue = backend.queue(BARE_QUEUE, { eventsMaxLen: 2_000 });
  try {
    const cpu0 = { producer: cpuSeconds(process.pid), workers: pids.map(cpuSplit), server: treeCpuSeconds(serverPid) };
    const t0 = Date.now();
    for (let i = 0; i < ITEMS; i += 500) {
      const chunk = Array.from({ length: Math.min(500, ITEMS - i) }, (_, k) => ({ name: 'bare', data: { item: i + k }, opts: batchJobOptions(`bare-${label}-${i + k}`) }));
      await queue.addBulk(chunk);
      await new Promise((resolve) => setImmediate(resolve));
    }
    while ((await queue.getCompletedCount()) < ITEMS) await new Promise((resolve) => setTimeout(resolve, 100));
    const [last] = await queue.getJobs(['completed'], 0, 0, false);
    const rate = ITEMS / (((last?.finishedOn ?? Date.now()) - t0) / 1000);
    const workerCpu = workersCpu(pids, cpu0.workers, ITEMS);
    const perJob = (seconds: number) => (seconds * 1000) / ITEMS;
    const producerMs = perJob(cpuSeconds(process.pid) - cpu0.producer);
    const serverMs = perJob(treeCpuSeconds(serverPid) - cpu0.server);
    const ideal = (WORKERS * CONCURRENCY * 1000) / CALL_MS;
    console.log(`bare BullMQ on ${label}: ${ITEMS} jobs of ${CALL_MS} ms on ${WORKERS} workers × ${CONCURRENCY}: ${rate.toFixed(0)} jobs/s = ${(rate / ideal).toFixed(2)} of the ideal; CPU ms per job: workers ${workerCpu.text}, producer ${producerMs.toFixed(1)}, ${label} ${serverMs.toFixed(1)}`);
    const cpuMs = workerCpu.ms + producerMs + serverMs;
    console.log(`  bare BullMQ on ${label}: ${cpuCeiling(cpuMs, ideal)}`);
    return { rate, cpuMs };
  } finally {
    for (const w of workers) w.kill('SIGTERM');
    await Promise.all(workers.map(exited));
    await queue.close();
  }
}

/** A round's throughput (items or jobs per second) and the CPU ms per item of all its processes together. */
interface Round {
  rate: number;
  cpuMs: number;
}

/** CPU seconds a process has used so far (Linux /proc; 0 elsewhere). */
function cpuSeconds(pid: number): number {
  const { user, system } = cpuSplit(pid);
  return user + system;
}

/** A process's CPU seconds so far, in user space and in the kernel (its socket writes and reads). */
function cpuSplit(pid: number): { user: number; system: number } {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return { user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 };
  } catch {
    return { user: 0, system: 0 };
  }
}

/** Workers' CPU ms per item since `before` (cpuSplit of each), with the kernel's share. */
function workersCpu(pids: readonly number[], before: readonly { user: number; system: number }[], items: number): { ms: number; text: string } {
  let user = 0;
  let system = 0;
  pids.forEach((pid, i) => {
    const now = cpuSplit(pid);
    user += now.user - (before[i]?.user ?? 0);
    system += now.system - (before[i]?.system ?? 0);
  });
  const ms = (s: number) => ((s * 1000) / items).toFixed(1);
  return { ms: ((user + system) * 1000) / items, text: `${ms(user + system)} (kernel ${ms(system)})` };
}

/**
 * The throughput this machine's cores allow a round that needs `msPerItem` of CPU per item in
 * all its processes together (workers, coordinator or producer, mock, queue server), as a
 * fraction of the ideal: above it no scheduling could go. Other engineers' processes take their
 * share too, so a round nearer to it than this is CPU-bound.
 */
function cpuCeiling(msPerItem: number, ideal: number): string {
  const cores = availableParallelism();
  const perS = (cores * 1000) / msPerItem;
  return `all its processes ${msPerItem.toFixed(1)} ms CPU per item: ${cores} cores allow at most ${perS.toFixed(0)}/s = ${(perS / ideal).toFixed(2)} of the ideal`;
}

/**
 * CPU seconds of a server and its children: PostgreSQL runs each session in a process of its
 * own, forked by the postmaster (those that ended are in its children's time).
 */
function treeCpuSeconds(pid: number): number {
  const stat = (p: number | string) => {
    try {
      return readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    } catch {
      return [];
    }
  };
  const own = stat(pid);
  let ticks = Number(own[11] ?? 0) + Number(own[12] ?? 0) + Number(own[13] ?? 0) + Number(own[14] ?? 0);
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    const fields = stat(entry);
    if (Number(fields[1]) === pid) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / 100;
}

/** One full batch on `backend` with the faulty mock; items/s, printed, with where the CPU went. */
async function batchRound(backend: Awaited<ReturnType<typeof openBackend>>, label: string, batchId: string, workerPids: readonly number[] = [], serverPid = 0): Promise<Round> {
  const cpu0 = { coordinator: cpuSeconds(process.pid), workers: workerPids.map(cpuSplit), server: serverPid ? treeCpuSeconds(serverPid) : 0, mock: MOCK.pid ? cpuSeconds(MOCK.pid) : 0 };
  const profile = mockProfile(MOCK.url);
  const variant: EvalVariant = { name: 'bench', kind: 'chain', chain: answerChain() };
  const dataset = answerDataset(ITEMS);
  const ideal = (WORKERS * CONCURRENCY * 1000) / CALL_MS;
  const results: ItemResult[] = [];
  // With --mock-in-process the mock's 50 ms timers run on this event loop: its delay is added to every call.
  const lag = monitorEventLoopDelay({ resolution: 5 });
  lag.enable();
  // The batch's own start and end: to its first result (queues, listener, first chunk, first runs) and after its last.
  let firstAt: number | undefined;
  let lastAt = 0;
  const t0 = performance.now();
  const window0 = process.hrtime.bigint() / 1000n;
  const summary = await runBatch({
    backend, batchId, profileKey: profileKey(profile), variants: [variant], itemsFor: () => dataset.items, done: new Set(),
    runIdFor: (_v, item) => `${batchId}-${item.id}`,
    onResult: async (r) => {
      firstAt ??= performance.now();
      lastAt = performance.now();
      results.push(r);
    },
  });
  const end = performance.now();
  const rate = ITEMS / ((end - t0) / 1000);
  // The round's span on the monotonic clock V8's profiles use, to cut the workers' profiles to it.
  if (argv.includes('--worker-cpu-prof')) console.log(`profile window of batch on ${label}: ${window0}–${process.hrtime.bigint() / 1000n} µs`);
  lag.disable();
  const lat = results.map((r) => r.latencyMs).sort((a, b) => a - b);
  console.log(`run latency in the worker: p50 ${lat[Math.floor(lat.length / 2)]} ms, p95 ${lat[Math.floor(lat.length * 0.95)]} ms, mean ${(lat.reduce((a, b) => a + b, 0) / lat.length).toFixed(1)} ms; first result ${((firstAt ?? end) - t0).toFixed(0)} ms after the start, the last ${(end - lastAt).toFixed(0)} ms before the end`);
  const failed = results.filter((r) => r.status === 'failed').length;
  const workerCpu = workersCpu(workerPids, cpu0.workers, ITEMS);
  const perItem = (seconds: number) => (seconds * 1000) / ITEMS;
  const coordinatorMs = perItem(cpuSeconds(process.pid) - cpu0.coordinator);
  const mockMs = MOCK.pid ? perItem(cpuSeconds(MOCK.pid) - cpu0.mock) : 0;
  const serverMs = serverPid ? perItem(treeCpuSeconds(serverPid) - cpu0.server) : 0;
  console.log(`batch on ${label}: ${ITEMS} items on ${WORKERS} workers × ${CONCURRENCY}: ${rate.toFixed(0)} items/s = ${(rate / ideal).toFixed(2)} of the ideal ${ideal}/s (target ≥ 0.8); ${failed} failed (permanent), ${summary.restarts} restarted, ${summary.unheard} found by a sweep (completed event unheard); CPU ms per item: workers ${workerCpu.text}, ${MOCK.pid ? 'coordinator' : 'coordinator + mock'} ${coordinatorMs.toFixed(1)}${MOCK.pid ? `, mock ${mockMs.toFixed(1)}` : ''}${serverPid ? `, ${label} ${serverMs.toFixed(1)}` : ''}; coordinator event-loop delay p50 ${(lag.percentile(50) / 1e6).toFixed(1)} ms, p99 ${(lag.percentile(99) / 1e6).toFixed(1)} ms`);
  const cpuMs = workerCpu.ms + coordinatorMs + mockMs + serverMs;
  console.log(`  batch on ${label}: ${cpuCeiling(cpuMs, ideal)}`);
  return { rate, cpuMs };
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
