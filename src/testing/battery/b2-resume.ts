import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateDemoOutput } from '../../providers/demo-model.ts';
import type { RunMeta, TraceEvent } from '../../trace/events.ts';
import type { RunRepository } from '../../trace/repository.ts';
import { createMockModelServer, type MockCall, type MockModelServer, type MockReply } from '../mock-server.ts';
import { callTarget, runB2Chain } from './b2-chain.ts';
import { isModelCall, PROTOCOLS, type Protocol } from './endpoints.ts';
import { createFileRunRepository } from './file-run-repository.ts';
import { installNetworkTrap } from './network-trap.ts';
import { CaseClock, CaseTimeout, watchUnhandledRejections, withTimeout, type BatterySuite, type SuiteOptions, type SuiteResult } from './types.ts';

/**
 * B2: a run of the B2 chain (two steps, a five-unit map, two steps) is stopped at many points
 * — when the k-th request reaches the endpoint, at the d-th streamed delta, right after the
 * b-th batch of events became durable (writes stop there, as a closed tab's), when an attempt
 * is recorded but not yet flushed, and by SIGKILL of a child process — then resumed from what
 * was stored on disk. No completed step or unit may be called again (counted at the mock) and
 * the output must equal an uninterrupted run's.
 */
type KillPoint =
  | { kind: 'request'; k: number }
  | { kind: 'delta'; d: number }
  | { kind: 'durable'; batch: number }
  | { kind: 'recorded'; k: number }
  | { kind: 'sigkill'; k: number };

const describePoint = (p: KillPoint) => {
  switch (p.kind) {
    case 'request': return `abort when request ${p.k} arrives`;
    case 'delta': return `abort at streamed delta ${p.d}`;
    case 'durable': return `crash after durable batch ${p.batch}`;
    case 'recorded': return `abort when attempt ${p.k} is recorded, before its flush`;
    case 'sigkill': return `SIGKILL the process when request ${p.k} arrives`;
  }
};

const childScript = fileURLToPath(new URL('./b2-child.ts', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** The mock answers as the demo model would, and lets a case act when the k-th request arrives. */
function answerAndWatch(server: MockModelServer, onRequest: (n: number) => MockReply | null) {
  let n = 0;
  server.setResponder((call: MockCall) => onRequest(++n) ?? { content: generateDemoOutput(call.messages, call.schema) });
}

/** A repository that stops writing (and aborts the run) once `batches` appends are durable. */
function crashingAfter(inner: RunRepository, batches: number, controller: AbortController): RunRepository {
  let seen = 0;
  let dead = false;
  return {
    ...inner,
    async appendEvents(runId, events) {
      if (dead) return;
      await inner.appendEvents(runId, events);
      if (++seen >= batches) {
        dead = true;
        controller.abort();
      }
    },
    async updateRun(id, patch) {
      if (!dead) await inner.updateRun(id, patch);
    },
  };
}

interface Baseline {
  output: unknown;
  requests: number;
  deltas: number;
  batches: number;
}

async function baseline(server: MockModelServer, protocol: Protocol, folder: string): Promise<Baseline> {
  server.reset();
  answerAndWatch(server, () => null);
  let deltas = 0;
  let batches = 0;
  const inner = createFileRunRepository(folder);
  const repo: RunRepository = { ...inner, appendEvents: async (id, e) => void (batches++, await inner.appendEvents(id, e)) };
  const meta = await runB2Chain({ protocol, url: server.url, repo, stream: true, onDelta: () => void deltas++ });
  if (meta.status !== 'succeeded') throw new Error(`the uninterrupted run ${meta.status}: ${meta.error}`);
  return { output: meta.output, requests: server.requests.filter((r) => isModelCall(r.path)).length, deltas, batches };
}

async function interrupt(server: MockModelServer, point: KillPoint, protocol: Protocol, folder: string): Promise<string> {
  server.reset();
  const runId = globalThis.crypto.randomUUID();
  const controller = new AbortController();
  if (point.kind === 'sigkill') return sigkill(server, point.k, protocol, folder, runId);
  const file = createFileRunRepository(folder);
  const repo = point.kind === 'durable' ? crashingAfter(file, point.batch, controller) : file;
  let deltas = 0;
  let attempts = 0;
  answerAndWatch(server, (n) => {
    if (point.kind === 'request' && n === point.k) controller.abort();
    return null;
  });
  const meta = await runB2Chain({
    protocol, url: server.url, repo, stream: point.kind === 'delta', runId, signal: controller.signal,
    onDelta: () => {
      if (point.kind === 'delta' && ++deltas === point.d) controller.abort();
    },
    onEvent: (e) => {
      if (point.kind === 'recorded' && e.type === 'step.attempt' && ++attempts === point.k) controller.abort();
    },
  });
  // After the last durable batch the run may have finished in memory: what is on disk still
  // lacks its end, which is the interruption being tested.
  if (meta.status === 'succeeded' && point.kind !== 'durable') throw new Error('the run was not interrupted');
  return runId;
}

async function sigkill(server: MockModelServer, k: number, protocol: Protocol, folder: string, runId: string): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', childScript, server.url, folder, runId, protocol, '0'], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => void (stderr += c.toString()));
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
  answerAndWatch(server, (n) => {
    if (n < k) return null;
    child.kill('SIGKILL');
    return { fault: 'hang' };
  });
  const how = await withTimeout(exited, 60_000, 'the child process');
  if (how !== 'SIGKILL') throw new Error(`the child was not killed (exit ${String(how)}): ${stderr.slice(0, 300)}`);
  return runId;
}

interface CaseOutcome {
  repeated: string[];
  lost: number;
  sameOutput: boolean;
  status: RunMeta['status'];
}

async function resumeAndCount(server: MockModelServer, runId: string, protocol: Protocol, folder: string, expected: unknown): Promise<CaseOutcome> {
  // A fresh repository object on the same folder: only what reached the disk is known.
  const repo = createFileRunRepository(folder);
  const stored = await repo.getEvents(runId);
  const done = new Set<string>();
  for (const e of stored) {
    if (e.type === 'step.finished' && e.status === 'succeeded') done.add(e.stepId);
    if (e.type === 'step.unit') done.add(`${e.stepId}/${e.unitId}`);
  }
  server.reset();
  answerAndWatch(server, () => null);
  const meta = await runB2Chain({ protocol, url: server.url, repo, stream: false, runId, resume: { events: stored } });
  const called = server.requests.filter((r) => isModelCall(r.path)).map((r) => callTarget(r.body));
  const after = await repo.getEvents(runId);
  const kept = (id: string) => after.some((e: TraceEvent) => (e.type === 'step.finished' && e.status === 'succeeded' && e.stepId === id) || (e.type === 'step.unit' && `${e.stepId}/${e.unitId}` === id));
  return {
    repeated: called.filter((target) => done.has(target)),
    lost: [...done].filter((id) => !kept(id)).length,
    sameOutput: JSON.stringify(meta.output) === JSON.stringify(expected),
    status: meta.status,
  };
}

function killPoints(base: Baseline, quick: boolean): KillPoint[] {
  const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
  const every = (list: number[], step: number) => list.filter((_, i) => i % step === 0);
  const deltaPoints = every(range(base.deltas - 1), Math.max(1, Math.floor(base.deltas / (quick ? 4 : 16))));
  const points: KillPoint[] = [
    ...every(range(base.requests), quick ? 3 : 1).map((k) => ({ kind: 'request', k }) as const),
    ...deltaPoints.map((d) => ({ kind: 'delta', d }) as const),
    ...every(range(base.batches - 1), quick ? 4 : 1).map((batch) => ({ kind: 'durable', batch }) as const),
    ...every(range(base.requests), quick ? 4 : 1).map((k) => ({ kind: 'recorded', k }) as const),
    ...(quick ? [2, 6] : range(base.requests)).map((k) => ({ kind: 'sigkill', k }) as const),
  ];
  return points;
}

export const b2Resume: BatterySuite = {
  id: 'B2',
  title: 'Kill and resume',
  target: 'kill the run at ≥ 50 points (abort, crash after a flush, SIGKILL) → resume with 0 repeated completed calls',
  async run(opts: SuiteOptions = {}): Promise<SuiteResult> {
    const server = await createMockModelServer({ idleExitMs: 120_000 });
    const trap = installNetworkTrap({ allowHosts: [new URL(server.url).host] });
    const rejections = watchUnhandledRejections();
    const folder = mkdtempSync(join(tmpdir(), 'seamscope-b2-'));
    const clock = new CaseClock();
    const failures: string[] = [];
    let cases = 0;
    let definedEnd = 0;
    let dataLost = 0;
    let repeated = 0;
    let sameOutput = 0;
    const distinct = new Set<string>();
    try {
      for (const protocol of PROTOCOLS) {
        const base = await baseline(server, protocol, folder);
        for (const point of killPoints(base, Boolean(opts.quick))) {
          cases++;
          const label = `${protocol} · ${describePoint(point)}`;
          try {
            const outcome = await clock.time(() => withTimeout((async () => {
              const runId = await interrupt(server, point, protocol, folder);
              return resumeAndCount(server, runId, protocol, folder, base.output);
            })(), 90_000, 'interrupt and resume'));
            distinct.add(describePoint(point));
            if (outcome.status === 'succeeded') definedEnd++;
            else failures.push(`${label}: the resumed run ${outcome.status}`);
            repeated += outcome.repeated.length;
            if (outcome.repeated.length) failures.push(`${label}: called again after completing: ${outcome.repeated.join(', ')}`);
            dataLost += outcome.lost;
            if (outcome.lost) failures.push(`${label}: ${outcome.lost} completed steps or units missing after the resume`);
            if (outcome.sameOutput) sameOutput++;
            else failures.push(`${label}: the output differs from the uninterrupted run's`);
          } catch (error) {
            failures.push(`${label}: ${error instanceof CaseTimeout ? 'hung' : 'failed'} — ${(error as Error).message}`);
          }
        }
      }
    } finally {
      rejections.stop();
      trap.restore();
      rmSync(folder, { recursive: true, force: true });
      await server.close();
    }
    const unexpected = trap.unexpected().length;
    const killed = [...distinct].filter((d) => d.startsWith('SIGKILL')).length;
    return {
      cases, definedEnd, dataLost, networkRequests: unexpected, codeExecuted: null,
      worstMs: clock.worstMs, worstHeapMb: clock.worstHeapMb, failures: [...failures, ...rejections.reasons.map((r) => `unhandled rejection: ${r}`)],
      checks: [
        { name: 'distinct kill points', ok: distinct.size >= (opts.quick ? 10 : 50) && killed > 0, detail: `${distinct.size} (${killed} by SIGKILL), each on ${PROTOCOLS.length} protocols` },
        { name: 'completed calls repeated on resume', ok: repeated === 0, detail: `${repeated}` },
        { name: 'resumed runs succeeded with the uninterrupted output', ok: definedEnd === cases && sameOutput === cases, detail: `${sameOutput}/${cases}` },
        { name: 'completed steps or units lost', ok: dataLost === 0, detail: `${dataLost}` },
        { name: 'unhandled rejections', ok: rejections.count() === 0, detail: `${rejections.count()}` },
        { name: 'requests beyond the mock', ok: unexpected === 0, detail: `${unexpected}` },
      ],
    };
  },
};
