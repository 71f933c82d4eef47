import { acceptItem, readCsvDataset, readDataset, textLines, type Dataset, type DatasetItem } from '../../src/eval/index.ts';
import type { DatasetRecord, SeamscopeDb } from './db.ts';

/**
 * Datasets in IndexedDB. A file is read as a stream, line by line (never whole), checked to
 * its last line, and only then stored in one transaction: a bad line anywhere refuses the
 * whole file with its line number and stores nothing.
 */
export type DatasetImport = { ok: true; dataset: DatasetRecord } | { ok: false; message: string };

async function* decoded(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = stream.getReader();
  // `stream: true` keeps a character split across two chunks whole.
  const decoder = new TextDecoder('utf-8');
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      yield decoder.decode(value, { stream: true });
    }
    const tail = decoder.decode();
    if (tail) yield tail;
  } finally {
    await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

const idFor = (name: string, taken: ReadonlySet<string>) => {
  const base = name.replace(/\.dataset\.jsonl$|\.jsonl$|\.csv$/i, '').replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 80) || 'dataset';
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  return id;
};

export async function importDatasetFile(db: SeamscopeDb, file: Blob & { name: string }, now = Date.now()): Promise<DatasetImport> {
  // A spreadsheet export maps its columns by header (id, question or inputs.question, facts, route, …).
  const read = /\.csv$/i.test(file.name) ? await readCsvDataset(decoded(file.stream()), {}, file.name.replace(/\.csv$/i, '')) : await readDataset(textLines(decoded(file.stream())));
  if (!read.ok) return { ok: false, message: `${file.name}, line ${read.line}: ${read.message}` };
  return { ok: true, dataset: await storeDataset(db, file.name, read.dataset, now) };
}

export async function storeDataset(db: SeamscopeDb, fileName: string, dataset: Dataset, now = Date.now()): Promise<DatasetRecord> {
  return db.transaction('rw', db.datasets, db.datasetItems, async () => {
    const taken = new Set((await db.datasets.toCollection().primaryKeys()) as string[]);
    const record: DatasetRecord = {
      id: idFor(fileName, taken), name: dataset.name ?? fileName, fileName, items: dataset.items.length,
      ...(dataset.scorers ? { scorers: dataset.scorers } : {}), importedAt: now,
    };
    await db.datasets.add(record);
    await db.datasetItems.bulkAdd(dataset.items.map((item, index) => ({ datasetId: record.id, index, item })));
    return record;
  });
}

export function listDatasets(db: SeamscopeDb): Promise<DatasetRecord[]> {
  return db.datasets.orderBy('importedAt').reverse().toArray();
}

export async function loadDataset(db: SeamscopeDb, id: string): Promise<Dataset | null> {
  const record = await db.datasets.get(id);
  if (!record) return null;
  const rows = await db.datasetItems.where('[datasetId+index]').between([id, -Infinity], [id, Infinity]).toArray();
  return { name: record.name, ...(record.scorers ? { scorers: record.scorers } : {}), items: rows.map((r) => r.item) };
}

export async function deleteDataset(db: SeamscopeDb, id: string): Promise<void> {
  await db.transaction('rw', db.datasets, db.datasetItems, async () => {
    await db.datasetItems.where('datasetId').equals(id).delete();
    await db.datasets.delete(id);
  });
}

export type AddItemResult = { ok: true; datasetId: string; items: number } | { ok: false; message: string };

/**
 * Appends one item (a run's inputs with the output a person corrected) to a stored dataset, or
 * to a new one by name. Checked exactly as a line of a file is (the item's shape, an id unique
 * in the dataset); a refused item changes nothing.
 */
export async function addItemToDataset(db: SeamscopeDb, target: { datasetId: string } | { name: string }, item: unknown, now = Date.now()): Promise<AddItemResult> {
  return db.transaction('rw', db.datasets, db.datasetItems, async (): Promise<AddItemResult> => {
    let record: DatasetRecord | undefined;
    if ('datasetId' in target) {
      record = await db.datasets.get(target.datasetId);
      if (!record) return { ok: false, message: 'that dataset is no longer stored' };
    } else {
      const name = target.name.trim();
      if (!name) return { ok: false, message: 'name the new dataset' };
      const taken = new Set((await db.datasets.toCollection().primaryKeys()) as string[]);
      record = { id: idFor(name, taken), name, fileName: `${name}.dataset.jsonl`, items: 0, importedAt: now };
    }
    const rows = await db.datasetItems.where('[datasetId+index]').between([record.id, -Infinity], [record.id, Infinity]).toArray();
    const accepted: DatasetItem[] = [];
    const problem = acceptItem(item, accepted, new Set(rows.map((r) => r.item.id)));
    if (problem) return { ok: false, message: problem };
    const index = rows.length ? Math.max(...rows.map((r) => r.index)) + 1 : 0;
    await db.datasetItems.add({ datasetId: record.id, index, item: accepted[0] as DatasetItem });
    await db.datasets.put({ ...record, items: rows.length + 1 });
    return { ok: true, datasetId: record.id, items: rows.length + 1 };
  });
}
