import { hashValue, ownValue, type Chain } from '../../src/chain/index.ts';
import { resultKey, runEval, shareRateLimit, type Dataset, type DatasetItem, type EvalProgress, type EvalVariant } from '../../src/eval/index.ts';
import { loadTokenCounter } from '../../src/providers/index.ts';
import { createProviderForProfile, runModelSettings, type EndpointProfile } from '../../src/providers/profiles.ts';
import { stepRegistry } from '../../src/steps/index.ts';
import type { RunRepository } from '../../src/trace/index.ts';
import type { EvalRecord, EvalResultRecord, SeamscopeDb } from '../persistence/db.ts';
import { loadDataset } from '../persistence/datasets.ts';
import { getApiKey } from '../persistence/profiles.ts';
import type { InteractionHold } from './interaction-hold.ts';
import { createWriteBatcher } from './write-batcher.ts';

/**
 * One stored batch, run to its end (or its cancel): every variant over every item through one
 * pool, finished items' results written together every RESULTS_MS (write-batcher.ts), and
 * all of them before the batch reports its end. A crash loses at most the last RESULTS_MS of
 * results; resume runs those items again, restoring their stored runs instead of calling the
 * model (a judge scorer, if any, is asked again). This runs in the eval worker
 * (eval.worker.ts), off the tab's main thread: a batch of thousands of runs keeps the canvas
 * at its idle frame rate. Nothing here touches the UI's stores.
 */
export interface StoredEvalJob {
  record: EvalRecord;
  profile: EndpointProfile;
  /** Per variant name (a Map: a chain id is any string): its chain's input files, read by the tab (they are served as demo files). */
  files: ReadonlyMap<string, Readonly<Record<string, string>>>;
}

/** The item as `variant` runs it: inputs the item leaves out come from the chain's input files, then its examples. */
export function completeItem(variant: EvalVariant, files: Readonly<Record<string, string>>, item: DatasetItem): DatasetItem {
  const inputs: Record<string, unknown> = { ...item.inputs };
  for (const input of variant.chain.inputs) {
    if (Object.hasOwn(inputs, input.name)) continue;
    const file = ownValue(files, input.name);
    if (file !== undefined) inputs[input.name] = file;
    else if (input.example !== undefined) inputs[input.name] = input.example;
  }
  return { ...item, inputs };
}

/** The chain whose input files complete a variant's items: a control completes them from the chain it controls. */
export function sourceOf(variant: EvalVariant, variants: readonly EvalVariant[]): Chain {
  if (variant.kind === 'chain') return variant.chain;
  const owner = variants.find((v) => v.kind === 'chain' && variant.name.startsWith(`${v.name}:`));
  return variant.kind === 'baseline' && variant.chain.meta ? variant.chain : owner?.chain ?? variant.chain;
}

export const PROGRESS_MS = 250;
export const RESULTS_MS = 250;

export async function runStoredEval(
  db: SeamscopeDb, repo: RunRepository, job: StoredEvalJob, signal: AbortSignal, onProgress: (progress: EvalProgress) => void, hold?: InteractionHold,
): Promise<{ cancelled: boolean }> {
  const { record, profile } = job;
  const dataset: Dataset | null = await loadDataset(db, record.datasetId);
  if (!dataset) throw new Error('the dataset is no longer stored');
  const done = new Set((await db.evalResults.where('evalId').equals(record.id).toArray()).map((r) => resultKey(r.result.variant, r.result.itemId)));
  // The key is read here, from this device's store, and goes only to the profile's endpoint.
  const apiKey = profile.kind === 'demo' ? undefined : await getApiKey(db, profile.id);
  // One limiter for the whole batch: a 429 one run hears about pauses every run.
  const shared = shareRateLimit(createProviderForProfile(profile, { apiKey, browser: true }));
  // A judge the dataset names is a chain in the library, by id.
  const judges = new Map<string, Chain>();
  for (const spec of dataset.scorers ?? []) {
    if (spec.type !== 'judge' || judges.has(spec.chain)) continue;
    const judge = (await db.chains.get(spec.chain))?.chain;
    if (judge) judges.set(spec.chain, judge);
  }
  let last = 0;
  const results = createWriteBatcher<EvalResultRecord>(async (rows) => void (await db.evalResults.bulkPut(rows)), { intervalMs: RESULTS_MS });
  // Each item's run carries the batch's id, so run lists keep it apart from the person's own runs.
  const batchRepo: RunRepository = { ...repo, createRun: (meta) => repo.createRun({ ...meta, evalId: record.id }) };
  const outcome = await runEval({
    variants: record.variants, dataset, provider: shared.provider, model: runModelSettings(profile), repo: batchRepo, registry: stepRegistry,
    concurrency: record.concurrency, signal, done, countTokens: await loadTokenCounter(), judges,
    ...(hold ? { beforeItem: (s?: AbortSignal) => hold.wait(s) } : {}),
    itemFor: (variant, item) => completeItem(variant, job.files.get(variant.name) ?? {}, item),
    runIdFor: (v, item) => `${record.id}-${hashValue([v.name, item.id]).slice(0, 10)}`,
    onResult: async (result) => results.add({ evalId: record.id, key: resultKey(result.variant, result.itemId), result }),
    onProgress: (progress) => {
      const now = Date.now();
      if (now - last < PROGRESS_MS && progress.done < progress.total) return;
      last = now;
      onProgress(progress);
    },
  }).catch(async (error: unknown) => {
    // What finished before the failure is kept, as it was when each result was its own write.
    await results.flush().catch(() => undefined);
    throw error;
  });
  await results.flush();
  return { cancelled: outcome.cancelled };
}
