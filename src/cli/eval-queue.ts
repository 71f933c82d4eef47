import { evalQueueName, openBackend, profileKey, runBatch, type QueueTarget } from '../batch/index.ts';
import type { Dataset, EvalProgress, EvalVariant, ItemResult, ScorerSpec } from '../eval/index.ts';
import type { EndpointProfile } from '../providers/profile.ts';
import type { Io } from './load-chain.ts';
import { terminalLine } from './terminal-text.ts';

/**
 * `seamscope eval --queue URL`: the coordinator half of a batch, loaded only with --queue (it
 * brings bullmq and its driver). Results arrive through `record`, the same function a local
 * eval writes with, so results.jsonl, runs/ and the table read the same either way.
 */
export interface QueuedEvalOptions {
  target: QueueTarget;
  rateLimit: { max: number; durationMs: number } | undefined;
  profile: EndpointProfile;
  batchId: string;
  reattach: boolean;
  variants: readonly EvalVariant[];
  itemsByVariant: ReadonlyMap<string, Dataset>;
  dataset: Dataset;
  scorers: readonly ScorerSpec[];
  done: ReadonlySet<string>;
  runIdFor(variant: EvalVariant, item: { id: string }): string;
  record(result: ItemResult, runFile: string | null): Promise<void>;
  signal: AbortSignal;
  onProgress(progress: EvalProgress): void;
  io: Io;
}

/** The flags a worker needs to serve this eval's endpoint (no key: that comes from its environment). */
export function workerFlags(profile: EndpointProfile): string {
  if (profile.kind === 'demo') return '';
  return ` --endpoint ${profile.baseUrl} --model ${profile.model}${profile.kind === 'anthropic' ? ' --protocol anthropic' : ''}${profile.structuredOutput ? '' : ' --no-structured-output'}`;
}

export async function runQueuedEval(opts: QueuedEvalOptions): Promise<void> {
  const key = profileKey(opts.profile);
  const scorers = opts.scorers.length ? opts.scorers : opts.dataset.scorers;
  opts.io.err(`batch ${opts.batchId} on ${terminalLine(opts.target.display)}, queue ${evalQueueName(key)}${opts.reattach ? ' (reattaching)' : ''}; workers: seamscope worker --queue ${terminalLine(opts.target.display)}${terminalLine(workerFlags(opts.profile))}`);
  const backend = await openBackend(opts.target, opts.io.env, { log: (line) => opts.io.err(terminalLine(line)) });
  try {
    const summary = await runBatch({
      backend, batchId: opts.batchId, profileKey: key, variants: opts.variants, reattach: opts.reattach,
      itemsFor: (v) => (opts.itemsByVariant.get(v.name) ?? opts.dataset).items,
      ...(scorers?.length ? { scorers } : {}), done: opts.done, runIdFor: opts.runIdFor,
      onResult: opts.record, onProgress: opts.onProgress, signal: opts.signal,
      ...(opts.rateLimit ? { rateLimit: opts.rateLimit } : {}),
    });
    if (!summary.cancelled) opts.io.err(`batch ${opts.batchId}: ${summary.ran} item run(s) collected${summary.restarts ? `, ${summary.restarts} job start(s) repeated (a worker died under them, or a retry)` : ''}`);
  } finally {
    await backend.close();
  }
}
