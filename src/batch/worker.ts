import { UnrecoverableError, type Job, type WorkerOptions } from 'bullmq';
import { runEvalItem } from '../eval/run-eval.ts';
import { shareRateLimit } from '../eval/shared-limit.ts';
import type { RunModelSettings } from '../engine/run.ts';
import type { TokenCounter } from '../providers/tokenizer.ts';
import type { ModelProvider } from '../providers/types.ts';
import type { StepRegistry } from '../steps/registry.ts';
import { createMemoryRunRepository } from '../trace/repository.ts';
import { toRunFile } from '../trace/run-file.ts';
import type { QueueBackend } from './backend.ts';
import { CHAINS_QUEUE, createChainReader, createTextReader, evalQueueName } from './chain-store.ts';
import { firstIssue } from '../files/zod-issue.ts';
import { jobDataSchema, RESULT_FORMAT, type JobResult } from './payload.ts';

/**
 * The worker loop: BullMQ hands this process jobs of one endpoint profile's queue, each one
 * variant over one item, and each runs through runEvalItem, the code path of a local eval.
 * The provider is built by the caller from this machine's own flags and environment (its key
 * included); nothing in a job can point it elsewhere. A job BullMQ hands out twice (its first
 * worker died) runs under the same run id, so a webhook step posts the same idempotency key.
 */
export interface BatchWorkerOptions {
  backend: QueueBackend;
  /** profileKey(profile) of the endpoint `provider` calls: the queue this worker serves. */
  profileKey: string;
  provider: ModelProvider;
  model: RunModelSettings;
  registry: StepRegistry;
  concurrency: number;
  /** Webhook origins this worker lets a chain post to. */
  allowEgress?: readonly string[];
  /** How long a job stays this worker's without a lock renewal; a dead worker's jobs return after about this long. */
  lockDurationMs?: number;
  countTokens?: TokenCounter;
  /** The fetch the runs use (the CLI passes its node:http one); the global fetch when absent. */
  fetch?: typeof fetch;
  log?(line: string): void;
}

export interface BatchWorker {
  /** Jobs finished (results handed back) and jobs failed, by this process. */
  readonly completed: number;
  readonly failed: number;
  /** Stops taking jobs, lets the running ones finish, closes. */
  close(): Promise<void>;
}

/** BullMQ's worker options for a batch worker (bench:batch gives its bare BullMQ workers the same). */
export function batchWorkerOptions(concurrency: number, lockDurationMs = 30_000): Omit<WorkerOptions, 'connection'> {
  return {
    concurrency, lockDuration: lockDurationMs, stalledInterval: lockDurationMs,
    // A job that lost its worker twice is failed (and reported) rather than handed out forever.
    maxStalledCount: 2,
  };
}

export function startBatchWorker(opts: BatchWorkerOptions): BatchWorker {
  const chains = opts.backend.queue(CHAINS_QUEUE);
  const readChain = createChainReader(chains, opts.registry);
  const readText = createTextReader(chains);
  let completed = 0;
  let failed = 0;
  // A 429 this worker meets pauses its own runs (shareRateLimit) and, through BullMQ's
  // queue-wide rate limit, every worker of the endpoint: none starts another job until the pause
  // is over. BullMQ applies that pause only on a queue with a limit (`eval --rate-limit`).
  const { provider } = shareRateLimit(opts.provider, { onPause: (ms) => void worker.rateLimit(ms).catch(() => undefined) });
  const processor = async (job: Job, _token?: string, signal?: AbortSignal): Promise<JobResult> => {
    const parsed = jobDataSchema.safeParse(job.data);
    // A job no worker could run is failed at once, not retried: the worker goes on with the next.
    if (!parsed.success) throw new UnrecoverableError(`bad job payload: ${firstIssue(parsed.error)}`);
    const data = parsed.data;
    if (data.profileKey !== opts.profileKey) throw new UnrecoverableError(`the job is for endpoint profile ${data.profileKey}; this worker calls ${opts.profileKey}`);
    const chain = await readChain(data.variant.chainHash);
    // Long inputs travel once per batch; put back as own properties (an input named "__proto__" stays a key).
    const texts = await Promise.all(Object.entries(data.inputTexts ?? {}).map(async ([name, hash]) => [name, await readText(hash)] as const));
    const item = texts.length ? { ...data.item, inputs: Object.fromEntries([...Object.entries(data.item.inputs), ...texts]) } : data.item;
    const repo = createMemoryRunRepository();
    const { chainHash: _hash, ...variant } = data.variant;
    const ran = await runEvalItem(
      { provider, model: opts.model, repo, registry: opts.registry, ...(signal ? { signal } : {}), ...(opts.allowEgress ? { allowEgress: opts.allowEgress } : {}), ...(opts.countTokens ? { countTokens: opts.countTokens } : {}), ...(opts.fetch ? { fetch: opts.fetch } : {}) },
      { ...variant, chain }, item, data.runId, data.scorers,
    );
    if (!ran) throw new Error('the worker was stopped before the run finished');
    return { format: RESULT_FORMAT, version: 1, result: ran.result, runFile: JSON.stringify(toRunFile(ran.meta, ran.events)), ...(job.attemptsStarted ? { started: job.attemptsStarted } : {}) };
  };
  const worker = opts.backend.worker(evalQueueName(opts.profileKey), processor as never, batchWorkerOptions(opts.concurrency, opts.lockDurationMs));
  worker.on('completed', () => void completed++);
  worker.on('failed', (job, error) => {
    failed++;
    opts.log?.(`job ${job?.id ?? '?'} failed (attempt ${job?.attemptsMade ?? '?'}): ${error.message}`);
  });
  worker.on('error', (error) => opts.log?.(`worker: ${error.message}`));
  return {
    get completed() { return completed; },
    get failed() { return failed; },
    async close() {
      await worker.close();
      await chains.close();
    },
  };
}
