import { parentPort, workerData } from 'node:worker_threads';
import { createScrubber } from '../providers/scrub.ts';
import { stepRegistry } from '../steps/index.ts';
import { finishJob, lateNaming, type FinishedTrace, type FinishJob } from './finish.ts';
import { joinEarlierLogs, WrittenParts } from './late-logs.ts';

/**
 * The collector's writer thread (started by trace-writer.ts): finished traces come in as
 * messages (finish.ts's FinishJob: the trace as OTLP/JSON text), in the order they finished; each is scrubbed, imported and written as a run file
 * (finish.ts), one at a time, and its outcome goes back as a message, in the same order. The
 * request thread never imports or writes, so it answers exporters while this works.
 *
 * It holds the scrubber's keys (from workerData, never from a message) and remembers the run
 * each trace's first part was written as, so a late part is named after it even when the late
 * part was handed over before the first part was written, and the text of the parts it wrote
 * (bounded), where late log records find their spans.
 */
export interface FinishWorkerData {
  dir: string;
  keys: readonly (string | null | undefined)[];
}

export interface FinishRequest {
  jobs: FinishJob[];
}

/** One trace's outcome; a write that failed comes back as `ok: false`, never as an exception. */
export interface FinishReply {
  result: FinishedTrace;
}

/** How many first runs are remembered for naming late parts (as many as the assembler remembers finished traces). */
const REMEMBERED_RUNS = 16_384;
/**
 * How much of the written parts' text is kept for late log records to find their spans in
 * (late-logs.ts): 16 M characters a thread, seconds of traces under bench:collect's load, and a
 * late batch of log records comes a few seconds after its spans.
 */
const REMEMBERED_CHARS = 16 * 1024 * 1024;

const { dir, keys } = workerData as FinishWorkerData;
const scrubber = createScrubber(keys);
const firstRuns = new Map<string, { id: string; name: string }>();
const written = new WrittenParts(REMEMBERED_CHARS);
const queue: FinishJob[] = [];
let pumping = false;

async function finishOne(job: FinishJob): Promise<FinishedTrace> {
  try {
    const parts = written.partsOf(job.traceId);
    const result = await finishJob(job, dir, scrubber, stepRegistry, lateNaming(job, firstRuns.get(job.traceId)), parts);
    // A part that joined records to earlier spans is remembered with them, so later records join after those.
    if (result.ok) written.remember(job.traceId, job.earlier ? JSON.stringify(joinEarlierLogs(job.otlp, job.earlier, parts).data) : job.otlp);
    if (result.ok && job.part === 1) {
      firstRuns.set(job.traceId, { id: result.run.id, name: result.run.chainName });
      // A Map iterates in insertion order: the oldest is forgotten first.
      if (firstRuns.size > REMEMBERED_RUNS) firstRuns.delete(firstRuns.keys().next().value as string);
    }
    return result;
  } catch (error) {
    // A write that failed (disk full, permissions): said, and the collector goes on.
    return { ok: false, traceId: job.traceId, spans: job.spans, logs: job.logs, message: `not written: ${(error as Error).message}` };
  }
}

async function pump(): Promise<void> {
  pumping = true;
  for (let job = queue.shift(); job !== undefined; job = queue.shift()) {
    const reply: FinishReply = { result: await finishOne(job) };
    parentPort?.postMessage(reply);
  }
  pumping = false;
}

parentPort?.on('message', (message: FinishRequest) => {
  queue.push(...message.jobs);
  if (!pumping) void pump();
});
