import type { Chain, LintFinding } from '../../src/chain/index.ts';
import type { Dataset } from '../../src/eval/index.ts';
import { boundaryConditions, conditionLint, type BoundaryConditions, type ConditionOptions } from '../../src/inspect/index.ts';
import { loadInputFiles } from '../persistence/chains.ts';
import { linkedDataset } from '../persistence/chain-datasets.ts';
import { loadDataset } from '../persistence/datasets.ts';
import { db } from '../persistence/db.ts';
import { canvasRegistry } from './canvas-registry.ts';

/**
 * The named conditions each handoff of the open chain must carry, and the lint of a summarising
 * step that is not told to keep them. Both need the chain's documents (`meta.inputFiles`), which
 * are fetched, and the questions of the dataset the chain is evaluated on (linked in the Evaluate
 * view, chain-datasets.ts), read from the database; so this module loads with import() when a
 * chain names documents: never on first paint. Documents are kept per file list (editing a
 * prompt does not fetch them again), datasets per id, import and size; results per chain revision and dataset.
 */
const documents = new Map<string, Record<string, string>>();
const loading = new Map<string, Promise<Record<string, string>>>();

const filesKey = (chain: Chain) => JSON.stringify(chain.meta?.inputFiles ?? null);

/** Whether the chain names documents at all (else there is nothing to load or say). */
export const namesDocuments = (chain: Chain): boolean => filesKey(chain) !== 'null';

/** The chain's documents, fetched once per file list; none when a file cannot be read. */
export function documentsOf(chain: Chain): Promise<Record<string, string>> {
  const key = filesKey(chain);
  let pending = loading.get(key);
  if (!pending) {
    pending = loadInputFiles(chain).catch(() => ({})).then((texts) => {
      documents.set(key, texts);
      return texts;
    });
    loading.set(key, pending);
  }
  return pending;
}

/** A dataset's questions per input name, with its name and size (null: the dataset is gone). */
interface DatasetQuestions {
  key: string;
  name: string;
  questions: Record<string, string[]>;
}
const datasets = new Map<string, DatasetQuestions | null>();

/** Each item's text inputs, per input name: what the chain is asked on that dataset. */
export function questionsOf(dataset: Pick<Dataset, 'items'>): Record<string, string[]> {
  const out: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  for (const item of dataset.items) {
    for (const [name, value] of Object.entries(item.inputs)) {
      if (typeof value !== 'string' || value.trim() === '') continue;
      (out[name] ??= []).push(value);
    }
  }
  return out;
}

/**
 * The linked dataset's questions, read again when its size changed (a run's item added to it) or
 * it was imported again;
 * null when the chain has none linked or it was deleted.
 */
async function datasetOf(chain: Chain): Promise<DatasetQuestions | null> {
  const id = linkedDataset(chain.id);
  if (!id) return null;
  const record = await db.datasets.get(id).catch(() => undefined);
  if (!record) {
    datasets.set(id, null);
    return null;
  }
  // Items are only ever appended, so the count tells a grown dataset; the import time tells a
  // dataset deleted and imported again under the same name (the same id) with as many items.
  const key = `${id}:${record.importedAt}:${record.items}`;
  const known = datasets.get(id);
  if (known?.key === key) return known;
  const dataset = await loadDataset(db, id).catch(() => null);
  const value = dataset ? { key, name: record.name, questions: questionsOf(dataset) } : null;
  datasets.set(id, value);
  return value;
}

/** The linked dataset as last read: undefined while it has not been read yet, null when there is none. */
function datasetNow(chain: Chain): DatasetQuestions | null | undefined {
  const id = linkedDataset(chain.id);
  return id ? datasets.get(id) : null;
}

/** Loads what the analysis needs (the documents and the linked dataset's questions). */
export async function prepare(chain: Chain): Promise<void> {
  await Promise.all([documentsOf(chain), datasetOf(chain)]);
}

const conditions = new WeakMap<Chain, Map<string, BoundaryConditions[]>>();
const findings = new WeakMap<Chain, Map<string, LintFinding[]>>();

/** Per revision and dataset, worked out once. */
function remembered<T>(cache: WeakMap<Chain, Map<string, T>>, chain: Chain, work: (docs: Record<string, string>, opts: ConditionOptions) => T): T | undefined {
  const docs = documents.get(filesKey(chain));
  const dataset = datasetNow(chain);
  if (!docs || dataset === undefined) return undefined;
  let byDataset = cache.get(chain);
  if (!byDataset) cache.set(chain, (byDataset = new Map()));
  const key = dataset?.key ?? '';
  let value = byDataset.get(key);
  if (value === undefined) {
    value = work(docs, dataset ? { questions: dataset.questions, datasetName: dataset.name } : {});
    byDataset.set(key, value);
  }
  return value;
}

/** Per data edge, the conditions its consumer's questions need; undefined until the documents and the dataset are loaded. */
export function conditionsNow(chain: Chain): BoundaryConditions[] | undefined {
  return remembered(conditions, chain, (docs, opts) => boundaryConditions(chain, canvasRegistry, docs, opts));
}

/** The summarising steps' warnings; undefined until the documents and the dataset are loaded. */
export function conditionFindingsNow(chain: Chain): LintFinding[] | undefined {
  return remembered(findings, chain, (docs, opts) => conditionLint(chain, canvasRegistry, docs, opts));
}

export async function edgeConditions(chain: Chain, edgeId: string): Promise<BoundaryConditions | null> {
  await prepare(chain);
  return conditionsNow(chain)?.find((b) => b.edgeId === edgeId) ?? null;
}
