import { hashValue } from '../../src/chain/index.ts';
import { buildControls, estimateEval, evalTable, resultKey, type EvalVariant } from '../../src/eval/index.ts';
import { loadTokenCounter } from '../../src/providers/index.ts';
import { stepRegistry } from '../../src/steps/index.ts';
import { chainEgress } from '../../src/steps/egress.ts';
import { loadInputFiles } from '../persistence/chains.ts';
import { openDb } from '../persistence/connection.ts';
import type { EvalRecord } from '../persistence/db.ts';
import { importDatasetFile, listDatasets, loadDataset } from '../persistence/datasets.ts';
import { refreshRuns } from '../runs/run-actions.ts';
import { useEditorStore } from '../stores/editor-store.ts';
import { selectActiveProfile, selectChain } from '../stores/selectors.ts';
import { completeItem, sourceOf, type StoredEvalJob } from './eval-batch.ts';
import { baselinePlans } from './baseline-plan.ts';
import { useEvalStore } from './eval-store.ts';
import { variantLabels } from './variant-labels.ts';
import { startEvalWorker } from './eval-worker-client.ts';

/**
 * Batches from the tab: variants over a stored dataset, each item an ordinary stored run. The
 * batch itself runs in the eval worker (eval-batch.ts: durable per item, resumable); here it is
 * planned, started, cancelled and shown. Progress reaches the store at most 4 times a second.
 */
let running: { cancel(): void } | null = null;

const toast = (kind: 'info' | 'error', text: string): void => void useEditorStore.getState().pushToast(kind, text);

export async function refreshEvalLists(): Promise<void> {
  const db = await openDb();
  useEvalStore.getState().setDatasets(await listDatasets(db));
  useEvalStore.getState().setEvals(await db.evals.orderBy('startedAt').reverse().limit(20).toArray());
}

export async function importDataset(file: File): Promise<string | null> {
  const result = await importDatasetFile(await openDb(), file);
  if (!result.ok) {
    toast('error', `Import failed: ${result.message}; nothing was stored`);
    return null;
  }
  toast('info', `Imported ${result.dataset.items} items from ${file.name}`);
  await refreshEvalLists();
  return result.dataset.id;
}

/** The chains to compare, and (when asked) their controls: the baseline they name, else a generated one, and ablations. */
export async function planVariants(chainIds: readonly string[], controls: boolean): Promise<{ variants: EvalVariant[]; notes: string[] }> {
  const db = await openDb();
  const variants: EvalVariant[] = [];
  const notes: string[] = [];
  for (const id of chainIds) {
    const chain = (await db.chains.get(id))?.chain;
    if (!chain) continue;
    if (chainEgress(chain, stepRegistry).length > 0) {
      notes.push(`${chain.name}: posts to a webhook; an eval does not run chains with side effects`);
      continue;
    }
    variants.push({ name: chain.id, kind: 'chain', chain });
    if (!controls) continue;
    const named = typeof chain.meta?.baseline === 'string' ? (await db.chains.get(chain.meta.baseline))?.chain ?? null : null;
    const plan = buildControls(chain, stepRegistry, { name: chain.id, baseline: named });
    variants.push(...plan.variants);
    for (const n of plan.notes) notes.push(`${chain.name}: ${n}`);
    for (const n of plan.notApplicable) notes.push(`${chain.name}: no ${n.kind}${n.step ? ` of ${n.step}` : ''}: ${n.reason}`);
  }
  return { variants, notes };
}

/** Each variant's input files, read once per chain they come from. */
async function inputFilesOf(variants: readonly EvalVariant[]): Promise<Map<string, Record<string, string>>> {
  const bySource = new Map<string, Promise<Record<string, string>>>();
  const out = new Map<string, Record<string, string>>();
  for (const v of variants) {
    const source = sourceOf(v, variants);
    if (!bySource.has(source.id)) bySource.set(source.id, loadInputFiles(source));
    out.set(v.name, await (bySource.get(source.id) as Promise<Record<string, string>>));
  }
  return out;
}

let estimates = 0;

/**
 * The bill, the notes and the baselines' prompts for what is ticked; a plan overtaken by a
 * newer one (the ticks changed meanwhile) is dropped, so notes never outlive their ticks.
 */
export async function estimate(datasetId: string, chainIds: readonly string[], controls: boolean): Promise<void> {
  const mine = ++estimates;
  if (!datasetId || chainIds.length === 0) return useEvalStore.getState().setPlan(null);
  const db = await openDb();
  const dataset = await loadDataset(db, datasetId);
  const profile = activeProfile();
  const { variants, notes } = await planVariants(chainIds, controls);
  if (!dataset || !profile) {
    if (mine === estimates) useEvalStore.getState().setPlan(null);
    return;
  }
  const countTokens = await loadTokenCounter();
  const files = await inputFilesOf(variants);
  const out = [];
  for (const v of variants) {
    const items = dataset.items.map((item) => completeItem(v, files.get(v.name) ?? {}, item));
    out.push(...estimateEval([v], items, stepRegistry, countTokens, profile.prices.input || profile.prices.output ? profile.prices : null, profile.maxOutputTokens));
  }
  if (mine !== estimates) return;
  useEvalStore.getState().setPlan({ estimate: out, notes, baselines: baselinePlans(variants, variantLabels(variants)) });
}

const activeProfile = () => selectActiveProfile(useEditorStore.getState());

export async function startEval(datasetId: string, chainIds: readonly string[], controls: boolean, concurrency: number): Promise<void> {
  const profile = activeProfile();
  if (!profile) return toast('error', 'Choose an endpoint profile first');
  const { variants, notes } = await planVariants(chainIds, controls);
  if (variants.length === 0) return toast('error', notes[0] ?? 'Choose at least one chain');
  const record: EvalRecord = {
    id: `eval-${Date.now().toString(36)}-${hashValue([datasetId, chainIds, controls]).slice(0, 6)}`,
    datasetId, variants, profileId: profile.id, concurrency, status: 'running', startedAt: Date.now(),
  };
  await (await openDb()).evals.put(record);
  await go(record);
}

export async function resumeEval(evalId: string): Promise<void> {
  const record = await (await openDb()).evals.get(evalId);
  if (!record) return toast('error', 'That evaluation is no longer stored');
  await go({ ...record, status: 'running' });
}

export function cancelEval(): void {
  running?.cancel();
}

/** A reviewer's mark on a flagged item: stored with its result, and the table recomputed. */
export async function reviewAbstention(evalId: string, variant: string, itemId: string, answerable: boolean): Promise<void> {
  const db = await openDb();
  const key = resultKey(variant, itemId);
  const row = await db.evalResults.get([evalId, key]);
  if (!row) return;
  await db.evalResults.put({ ...row, review: { answerable, at: Date.now() } });
  await showEval(evalId);
}

/** The table of a stored batch; spend a month at `volume` items and the batch profile's prices. */
export async function showEval(evalId: string, volume = useEvalStore.getState().volume): Promise<void> {
  const db = await openDb();
  const record = await db.evals.get(evalId);
  if (!record) return;
  const profile = useEditorStore.getState().profiles.find((p) => p.id === record.profileId);
  const rows = await db.evalResults.where('evalId').equals(evalId).toArray();
  const results = rows.map((r) => r.result);
  const reviews = new Map(rows.filter((r) => r.review).map((r) => [r.key, r.review?.answerable === true]));
  const prices = profile && (profile.prices.input || profile.prices.output) ? { priceIn: profile.prices.input, priceOut: profile.prices.output } : {};
  const table = evalTable(record.variants, results, { ...prices, ...(volume > 0 ? { volume } : {}), handlingMinutes: useEvalStore.getState().handlingMinutes, reviews });
  useEvalStore.getState().setShown({ evalId, table, results, variants: record.variants });
}

async function go(record: EvalRecord): Promise<void> {
  if (running) return toast('error', 'An evaluation is already running');
  const db = await openDb();
  const profile = useEditorStore.getState().profiles.find((p) => p.id === record.profileId);
  const dataset = await loadDataset(db, record.datasetId);
  if (!profile || !dataset) return toast('error', profile ? 'The dataset is no longer stored' : 'The evaluation’s endpoint profile is gone');
  await db.evals.put(record);
  const job: StoredEvalJob = { record, profile, files: await inputFilesOf(record.variants) };
  const batch = startEvalWorker({ type: 'start', job }, {
    onProgress: (progress) => useEvalStore.getState().setRunning({ evalId: record.id, progress }),
  });
  running = batch;
  useEvalStore.getState().setRunning({ evalId: record.id, progress: { done: 0, total: record.variants.length * dataset.items.length, failed: 0, etaMs: null } });
  try {
    const { cancelled } = await batch.finished;
    const status: EvalRecord['status'] = cancelled ? 'cancelled' : 'finished';
    await db.evals.update(record.id, { status, ...(status === 'finished' ? { finishedAt: Date.now() } : {}) });
    if (status === 'cancelled') toast('info', 'Evaluation cancelled: finished items are kept; Resume continues it');
  } catch (error) {
    toast('error', `The evaluation stopped: ${(error as Error).message}`);
  } finally {
    running = null;
    useEvalStore.getState().setRunning(null);
    await refreshEvalLists();
    await showEval(record.id);
    // The batch's runs are ordinary runs: the open chain's run list shows them.
    const open = selectChain(useEditorStore.getState());
    if (open) await refreshRuns(open.id).catch(() => undefined);
  }
}
