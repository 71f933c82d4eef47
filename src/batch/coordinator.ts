import type { Job, JobsOptions, Queue } from 'bullmq';
import type { DatasetItem } from '../eval/dataset.ts';
import { resultKey, type EvalProgress, type EvalVariant, type ItemResult } from '../eval/run-eval.ts';
import type { ScorerSpec } from '../eval/scorer-spec.ts';
import { parseRunFile } from '../trace/run-file.ts';
import type { QueueBackend } from './backend.ts';
import { CHAINS_QUEUE, chainHash, evalQueueName, SHARED_TEXT_CHARS, storeChains, storeTexts, textHash } from './chain-store.ts';
import { enqueueInChunks } from './enqueue.ts';
import { firstIssue } from '../files/zod-issue.ts';
import { JOB_FORMAT, jobResultSchema, type JobData } from './payload.ts';

/**
 * The coordinator: puts one job per variant and item on the endpoint profile's queue, then
 * collects each result as workers finish it and hands it to `onResult` (which makes it durable:
 * results.jsonl and the run file), then removes the job. The batch's id is the eval's id and
 * each job's id is its run id, so a coordinator started again with the same eval reattaches:
 * adding a job that is already queued, running or finished-but-not-collected adds nothing, and
 * what finished while no coordinator was listening is found by a sweep over the jobs.
 */
export interface BatchOptions {
  backend: QueueBackend;
  batchId: string;
  profileKey: string;
  variants: readonly EvalVariant[];
  itemsFor(variant: EvalVariant): readonly DatasetItem[];
  scorers?: readonly ScorerSpec[];
  /** resultKey(variant, item) of results already durable. */
  done: ReadonlySet<string>;
  runIdFor(variant: EvalVariant, item: DatasetItem): string;
  /** A finished item: its result and, unless the job itself failed, its run file's text. */
  onResult(result: ItemResult, runFile: string | null): Promise<void>;
  onProgress?(progress: EvalProgress): void;
  signal?: AbortSignal;
  /** Jobs per addBulk call (default 500): a long batch never holds the queue for seconds at a time. */
  chunkSize?: number;
  /** Times a job is tried when its worker throws (default 3), with exponential backoff from `backoffMs`. */
  attempts?: number;
  backoffMs?: number;
  /** Jobs started per window for this endpoint profile, across every worker (BullMQ's global rate limit). */
  rateLimit?: { max: number; durationMs: number };
  /** An earlier coordinator of this batch may have left finished jobs: look for them before waiting. */
  reattach?: boolean;
  /** How often to look over unfinished jobs when no event arrived (default 2 s). */
  sweepMs?: number;
}

export interface BatchSummary {
  cancelled: boolean;
  ran: number;
  skipped: number;
  /** Extra starts: jobs that were started more than once (a worker died under them, or a retry). */
  restarts: number;
  /** Results found by a sweep because their completed event was never heard. */
  unheard: number;
}

const WEEK_S = 7 * 24 * 3600;

/** BullMQ's options for one job of a batch (bench:batch gives its bare BullMQ jobs the same). */
export function batchJobOptions(runId: string, opts: Pick<BatchOptions, 'attempts' | 'backoffMs'> = {}): JobsOptions {
  return {
    jobId: runId, attempts: opts.attempts ?? 3, backoff: { type: 'exponential', delay: opts.backoffMs ?? 1_000 },
    // The coordinator removes a job once its result is durable; these only bound what an abandoned batch leaves.
    removeOnComplete: { age: WEEK_S }, removeOnFail: { age: WEEK_S },
  };
}

export async function runBatch(opts: BatchOptions): Promise<BatchSummary> {
  // Each completed event carries its job's return value (the run file): keep a bounded window of them.
  const queue = opts.backend.queue(evalQueueName(opts.profileKey), { eventsMaxLen: 2_000 });
  const chains = opts.backend.queue(CHAINS_QUEUE);
  const events = opts.backend.events(evalQueueName(opts.profileKey));
  try {
    return await coordinate(opts, queue, chains, events);
  } finally {
    await events.close();
    await chains.close();
    await queue.close();
  }
}

async function coordinate(opts: BatchOptions, queue: Queue, chains: Queue, events: ReturnType<QueueBackend['events']>): Promise<BatchSummary> {
  const pending = new Map<string, { variant: EvalVariant; item: DatasetItem }>();
  const jobs: { name: string; data: JobData; opts: JobsOptions }[] = [];
  let skipped = 0;
  const hashes = new Map<EvalVariant, string>();
  const texts = new Map<string, string>();
  for (const variant of opts.variants) {
    const hash = chainHash(variant.chain);
    hashes.set(variant, hash);
    for (const item of opts.itemsFor(variant)) {
      if (opts.done.has(resultKey(variant.name, item.id))) {
        skipped++;
        continue;
      }
      const runId = opts.runIdFor(variant, item);
      pending.set(runId, { variant, item });
      const { inputs, inputTexts } = shareLongTexts(item.inputs, texts);
      jobs.push({
        name: opts.batchId,
        data: {
          format: JOB_FORMAT, version: 1, batchId: opts.batchId, profileKey: opts.profileKey, runId,
          variant: { name: variant.name, kind: variant.kind, ...(variant.step ? { step: variant.step } : {}), ...(variant.differs ? { differs: variant.differs } : {}), chainHash: hash },
          item: { ...item, inputs }, ...(inputTexts ? { inputTexts } : {}), ...(opts.scorers?.length ? { scorers: [...opts.scorers] } : {}),
        },
        opts: batchJobOptions(runId, opts),
      });
    }
  }
  const total = pending.size + skipped;
  let ran = 0;
  let failed = 0;
  let restarts = 0;
  const started = Date.now();
  let unheard = 0;
  if (pending.size === 0) return { cancelled: false, ran, skipped, restarts, unheard };

  await storeChains(chains, [...new Set(opts.variants.map((v) => v.chain))]);
  await storeTexts(chains, texts);
  if (opts.rateLimit) await queue.setGlobalRateLimit(opts.rateLimit.max, opts.rateLimit.durationMs);

  let wake: () => void = () => undefined;
  const nudge = () => wake();
  // A completed event carries the job's return value: collected from it, the job is neither read
  // back (its whole hash, parsed again) nor asked its state; a failed job is read for its reason.
  const finished = new Map<string, unknown>();
  // Listening before adding: no job can finish unheard.
  const onCompleted = ({ jobId, returnvalue }: { jobId: string; returnvalue?: unknown }) => {
    if (pending.has(jobId)) {
      finished.set(jobId, returnvalue ?? null);
      nudge();
    }
  };
  const onFailed = ({ jobId }: { jobId: string }) => {
    if (pending.has(jobId)) {
      finished.set(jobId, null);
      nudge();
    }
  };
  events.on('completed', onCompleted);
  events.on('failed', onFailed);
  await events.waitUntilReady();
  opts.signal?.addEventListener('abort', nudge, { once: true });

  const collecting = new Set<string>();
  const settle = async (jobId: string, result: ItemResult, runFile: string | null, starts: number) => {
    await opts.onResult(result, runFile);
    pending.delete(jobId);
    ran++;
    if (result.status === 'failed') failed++;
    restarts += Math.max(0, starts - 1);
    await queue.remove(jobId).catch(() => undefined);
    opts.onProgress?.({ done: skipped + ran, total, failed, etaMs: Math.round(((Date.now() - started) / ran) * pending.size) });
  };
  const collect = async (jobId: string, value: unknown = null): Promise<void> => {
    const entry = pending.get(jobId);
    if (!entry || collecting.has(jobId)) return;
    collecting.add(jobId);
    try {
      const heard = value === null ? null : checkedResult(value, entry, jobId);
      if (heard) {
        await settle(jobId, heard.result, heard.runFile, heard.started);
        return;
      }
      let found = await queue.getJob(jobId);
      if (!found) return;
      const hasValue = (j: Job) => j.finishedOn && j.returnvalue !== null && j.returnvalue !== undefined;
      // A return value is written only when a job completes: no need to ask its state then.
      const state = hasValue(found) ? 'completed' : await found.getState();
      if (state !== 'completed' && state !== 'failed') return;
      // Read while it was still active, completed before its state was asked: read it again for
      // its return value (seen in CI under load as a result "not one: received null").
      if (state === 'completed' && !hasValue(found)) found = await queue.getJob(jobId);
      if (!found) return;
      const { result, runFile } = state === 'completed' ? checkedResult(found.returnvalue, entry, jobId) : { result: failedResult(entry, jobId, found.failedReason, found.attemptsMade), runFile: null };
      await settle(jobId, result, runFile, found.attemptsStarted ?? 1);
    } finally {
      collecting.delete(jobId);
    }
  };
  const sweep = async () => {
    const ids = [...pending.keys()];
    const before = ran;
    for (let i = 0; i < ids.length && !opts.signal?.aborted; i += 100) await Promise.all(ids.slice(i, i + 100).map((id) => collect(id)));
    unheard += ran - before;
  };

  await enqueueInChunks(queue, jobs, opts.chunkSize ?? 500, opts.signal);
  // What finished while no coordinator listened is found here (and, later, by the idle sweep).
  if (opts.reattach) await sweep();
  // Events go unheard: BullMQ's PostgreSQL stream reads on from the highest event id it has
  // seen, and concurrent completions commit out of id order, so a reader can step past one that
  // commits a moment later (and any stream drops what falls out of its window). Such a job is
  // found by a sweep: after sweepMs without a word, or as soon as a short quiet finds nothing
  // left to run in the queue (the end of a batch), rather than sweepMs after the last result.
  const sweepMs = opts.sweepMs ?? 2_000;
  // How long a quiet must last before the queue is asked whether anything is left: a few times
  // the usual gap between results, so the end of a fast batch is noticed within tens of ms, not
  // a fixed quarter second (which was 3–4 % of a 2,000-item batch's time on PostgreSQL, where a
  // few dozen completions go unheard and the end is found this way). Each fruitless quiet in a row
  // doubles it, up to QUIET_MS, so a long call at the end asks a few times, not every 20 ms.
  const quietCap = Math.min(QUIET_MS, sweepMs);
  const endWatch = createQuietWatch(quietCap);
  let quiet = 0;
  let sweptSinceHeard = false;
  while (pending.size > 0 && !opts.signal?.aborted) {
    if (finished.size === 0) {
      const waitMs = endWatch.nextWaitMs();
      const heard = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), waitMs);
        wake = () => {
          clearTimeout(timer);
          resolve(true);
        };
      });
      wake = () => undefined;
      if (heard) {
        endWatch.heard(Date.now());
        quiet = 0;
        sweptSinceHeard = false;
      } else {
        endWatch.quiet();
        quiet += waitMs;
        if (quiet >= sweepMs || (!sweptSinceHeard && await nothingLeftToRun(queue))) {
          quiet = 0;
          sweptSinceHeard = true;
          await sweep();
        }
      }
    }
    const batch = [...finished];
    finished.clear();
    await Promise.all(batch.map(([id, value]) => collect(id, value)));
  }
  events.off('completed', onCompleted);
  events.off('failed', onFailed);
  return { cancelled: pending.size > 0, ran, skipped, restarts, unheard };
}

/** The longest the coordinator waits without a word before it asks whether anything is left to run. */
const QUIET_MS = 250;
/** The shortest: below this, a pause between two results would ask the queue too often. */
const MIN_QUIET_MS = 20;

/**
 * How long to wait for a result before taking the silence as a quiet: four times the recent gap
 * between results (a moving average), within [MIN_QUIET_MS, cap]; doubled after each quiet in a
 * row, reset by the next result.
 */
export function createQuietWatch(cap: number): { nextWaitMs(): number; heard(at: number): void; quiet(): void } {
  let last: number | null = null;
  let gap: number | null = null;
  let streak = 0;
  return {
    nextWaitMs() {
      const base = gap === null ? cap : Math.min(cap, Math.max(MIN_QUIET_MS, Math.round(4 * gap)));
      return Math.min(cap, base * 2 ** streak);
    },
    heard(at) {
      if (last !== null) gap = gap === null ? at - last : 0.8 * gap + 0.2 * (at - last);
      last = at;
      streak = 0;
    },
    quiet() {
      streak = Math.min(streak + 1, 8);
    },
  };
}

/** No job of the queue waits, runs or waits to retry: every job still pending has finished (or is gone). */
async function nothingLeftToRun(queue: Queue): Promise<boolean> {
  const left = await queue.getJobCountByTypes('waiting', 'prioritized', 'active', 'delayed', 'waiting-children').catch(() => 1);
  return left === 0;
}

/** A worker's result, checked: a payload that is not one (or names another item) counts as that item failing. */
function checkedResult(value: unknown, entry: { variant: EvalVariant; item: DatasetItem }, runId: string): { result: ItemResult; runFile: string | null; started: number } {
  const parsed = jobResultSchema.safeParse(value);
  if (!parsed.success) return { result: failedResult(entry, runId, `the worker's result is not one: ${firstIssue(parsed.error)}`, 1), runFile: null, started: 1 };
  const { result, runFile, started = 1 } = parsed.data;
  if (result.variant !== entry.variant.name || result.itemId !== entry.item.id || result.runId !== runId) {
    return { result: failedResult(entry, runId, 'the worker returned the result of another item', 1), runFile: null, started };
  }
  const run = parseRunFile(runFile);
  if (!run.ok) return { result: failedResult(entry, runId, `the worker's run file is not one: ${run.message}`, 1), runFile: null, started };
  return { result: result as ItemResult, runFile, started };
}

/** An item whose job failed after its retries: reported with its error, like a run that failed. */
function failedResult(entry: { variant: EvalVariant; item: DatasetItem }, runId: string, reason: string | undefined, attempts: number): ItemResult {
  return {
    variant: entry.variant.name, itemId: entry.item.id, runId, status: 'failed', pass: false, abstained: false, scores: [],
    latencyMs: 0, inputTokens: 0, outputTokens: 0, calls: 0, error: `job failed after ${attempts} attempt(s): ${reason ?? 'no reason given'}`, steps: [], boundaries: [],
  };
}

/** An item's inputs with each long text taken out and named by hash (collected in `texts`, stored once). */
function shareLongTexts(inputs: Record<string, unknown>, texts: Map<string, string>): { inputs: Record<string, unknown>; inputTexts?: Record<string, string> } {
  const kept: [string, unknown][] = [];
  const shared: [string, string][] = [];
  for (const [name, value] of Object.entries(inputs)) {
    if (typeof value !== 'string' || value.length < SHARED_TEXT_CHARS) {
      kept.push([name, value]);
      continue;
    }
    const hash = textHash(value);
    texts.set(hash, value);
    shared.push([name, hash]);
  }
  return shared.length ? { inputs: Object.fromEntries(kept), inputTexts: Object.fromEntries(shared) } : { inputs };
}
