import { Worker } from 'node:worker_threads';
import type { PendingTrace } from './assembler.ts';
import { toFinishJob, type FinishedTrace, type FinishJob } from './finish.ts';
import type { FinishReply, FinishRequest, FinishWorkerData } from './finish-worker.ts';
import { finishWorkerEntry, type WorkerEntry } from './finish-worker-entry.ts';

/**
 * The request thread's side of the writer threads (finish-worker.ts): finished traces are handed
 * over and counted as queued (spans and bytes, which the collector holds to its bounds and
 * answers 429 past them) until their outcome comes back. A trace's parts always go to the same
 * thread, in the order they finished, so a late part is written after (and named after) its
 * first. Threads may write in either order; outcomes are handed to `onResult` in the order the
 * traces were handed over (an outcome that comes back early waits for those before it), so the
 * collector prints its traces in the order they finished.
 *
 * A thread that dies (a bug, out of memory) does not take the collector with it: the traces it
 * held are reported as not written, and the next traces for it start a new thread.
 */
export interface TraceWriter {
  /** Hands finished traces over to be imported and written. */
  write(traces: readonly PendingTrace[]): void;
  /** What was handed over and has no outcome yet. */
  readonly queued: { readonly traces: number; readonly spans: number; readonly bytes: number };
  /** Resolves when every trace handed over so far has its outcome. */
  idle(): Promise<void>;
  /** Waits until idle, then ends the threads. */
  close(): Promise<void>;
  /** How many writer threads are running (each starts with the first trace handed to it). */
  threads(): number;
}

export interface TraceWriterOptions {
  dir: string;
  /** The keys to scrub literally (with the key shapes, as createScrubber does). */
  keys: readonly (string | null | undefined)[];
  /** How many writer threads (at least 1). */
  threads: number;
  /** Each trace's outcome, in the order the traces were handed over. */
  onResult: (trace: FinishedTrace) => void;
  /**
   * Tests only: the module each thread runs, in place of finish-worker.ts (a thread that dies on
   * purpose). The collector (server.ts) never sets it, so no option or flag of the command reaches it.
   */
  workerEntry?: WorkerEntry;
}

interface Held {
  traceId: string;
  spans: number;
  logs: number;
  bytes: number;
  /** Its outcome, once it came back, until those handed over before it have theirs. */
  result: FinishedTrace | null;
}

/** One writer thread and what it holds, in the order it was handed over (its outcomes come back in that order). */
interface Lane {
  worker: Worker | null;
  held: Held[];
}

/** A trace id (32 hex digits) → a lane; the same id always to the same lane. */
function laneOf(traceId: string, lanes: number): number {
  return lanes === 1 ? 0 : Number.parseInt(traceId.slice(-6), 16) % lanes || 0;
}

export function startTraceWriter(options: TraceWriterOptions): TraceWriter {
  const lanes: Lane[] = Array.from({ length: Math.max(1, Math.floor(options.threads)) }, () => ({ worker: null, held: [] }));
  const queued = { traces: 0, spans: 0, bytes: 0 };
  let waiting: (() => void)[] = [];
  let closed = false;
  let running = 0;

  // Every trace handed over and not yet given to onResult, in the order handed over; `head` is
  // the first not yet given (a moving index, compacted now and then, not a shift per trace).
  let order: Held[] = [];
  let head = 0;

  const settle = (item: Held, result: FinishedTrace) => {
    // Written (or not): no longer held against the bounds, even while its outcome waits its turn.
    queued.traces--;
    queued.spans -= item.spans;
    queued.bytes -= item.bytes;
    item.result = result;
    for (let next = order[head]; next?.result; next = order[head]) {
      head++;
      options.onResult(next.result);
    }
    if (head > 1024 && head * 2 > order.length) {
      order = order.slice(head);
      head = 0;
    }
    if (head === order.length) {
      order = [];
      head = 0;
      const resolve = waiting;
      waiting = [];
      for (const r of resolve) r();
    }
  };

  const start = (lane: Lane): Worker => {
    const { entry, eval: isCode } = options.workerEntry ?? finishWorkerEntry();
    const data: FinishWorkerData = { dir: options.dir, keys: [...options.keys] };
    const thread = new Worker(entry, { eval: isCode, workerData: data });
    running++;
    let failure = 'it stopped';
    thread.on('message', (reply: FinishReply) => {
      const item = lane.held.shift();
      if (item) settle(item, reply.result);
    });
    thread.on('error', (error) => {
      failure = `it failed: ${error.message}`;
    });
    thread.on('exit', (code) => {
      running--;
      if (failure === 'it stopped' && code !== 0) failure = `it stopped with exit code ${code}`;
      if (lane.worker === thread) lane.worker = null;
      // What it held has no outcome coming: said, and released from the bounds.
      for (let item = lane.held.shift(); item !== undefined; item = lane.held.shift()) {
        settle(item, { ok: false, traceId: item.traceId, spans: item.spans, logs: item.logs, message: `not written: the writer thread ended before writing it (${failure})` });
      }
    });
    return thread;
  };

  return {
    write(traces) {
      if (traces.length === 0) return;
      if (closed) throw new Error('the trace writer is closed');
      const jobs: FinishJob[][] = lanes.map(() => []);
      for (const t of traces) {
        const i = laneOf(t.traceId, lanes.length);
        const item: Held = { traceId: t.traceId, spans: t.spans.length, logs: t.logCount, bytes: t.bytes, result: null };
        (lanes[i] as Lane).held.push(item);
        order.push(item);
        (jobs[i] as FinishJob[]).push(toFinishJob(t));
        queued.traces++;
        queued.spans += t.spans.length;
        queued.bytes += t.bytes;
      }
      lanes.forEach((lane, i) => {
        const request: FinishRequest = { jobs: jobs[i] as FinishJob[] };
        if (request.jobs.length === 0) return;
        lane.worker ??= start(lane);
        lane.worker.postMessage(request);
      });
    },
    queued,
    threads: () => running,
    idle: () => (head === order.length ? Promise.resolve() : new Promise((resolve) => waiting.push(resolve))),
    async close() {
      closed = true;
      if (head < order.length) await new Promise<void>((resolve) => waiting.push(resolve));
      await Promise.all(lanes.map((lane) => {
        const thread = lane.worker;
        lane.worker = null;
        return thread?.terminate();
      }));
    },
  };
}
