import 'fake-indexeddb/auto';
import { Dexie } from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { DB_VERSIONS, SeamscopeDb } from './db.ts';
import { addItemToDataset, deleteDataset, importDatasetFile, listDatasets, loadDataset } from './datasets.ts';

const names: string[] = [];
let counter = 0;
const fresh = () => {
  const name = `datasets-${++counter}`;
  names.push(name);
  return new SeamscopeDb(name);
};
afterEach(async () => {
  for (const name of names.splice(0)) await Dexie.delete(name);
});

const file = (name: string, text: string) => new File([text], name, { type: 'application/x-ndjson' });
const line = (id: string) => JSON.stringify({ id, inputs: { question: `Q ${id} — “quoted”` }, expected: { facts: ['180 days'] } });

describe('datasets in IndexedDB', () => {
  it('imports a streamed file in file order and reads it back', async () => {
    const db = fresh();
    const text = `{"format":"seamscope.dataset","version":1,"name":"Statute","scorers":[{"type":"facts"}]}\n${Array.from({ length: 300 }, (_, i) => line(`q${i}`)).join('\n')}\n`;
    const imported = await importDatasetFile(db, file('statute.dataset.jsonl', text));
    expect(imported).toMatchObject({ ok: true, dataset: { id: 'statute', name: 'Statute', items: 300, scorers: [{ type: 'facts' }] } });
    const again = await importDatasetFile(db, file('statute.dataset.jsonl', text));
    expect(again.ok && again.dataset.id).toBe('statute-2');
    const loaded = await loadDataset(db, 'statute');
    expect(loaded?.items.map((i) => i.id).slice(0, 3)).toEqual(['q0', 'q1', 'q2']);
    expect(loaded?.items[299]?.inputs.question).toBe('Q q299 — “quoted”');
    expect((await listDatasets(db)).map((d) => d.id)).toEqual(['statute-2', 'statute']);
    await deleteDataset(db, 'statute');
    expect(await loadDataset(db, 'statute')).toBeNull();
    expect(await db.datasetItems.where('datasetId').equals('statute').count()).toBe(0);
  });

  it('refuses a file with a bad line, with its number, and stores nothing', async () => {
    const db = fresh();
    const imported = await importDatasetFile(db, file('bad.dataset.jsonl', `${line('a')}\n${line('b')}\n{"id":"c","inputs":{},"expected":{"route":7}}\n${line('d')}\n`));
    expect(imported).toEqual({ ok: false, message: expect.stringMatching(/^bad\.dataset\.jsonl, line 3: \$\.expected\.route/) });
    expect(await db.datasets.count()).toBe(0);
    expect(await db.datasetItems.count()).toBe(0);
  });
});

describe('CSV datasets in IndexedDB', () => {
  it('imports a spreadsheet export by its headers, and refuses a bad row with its line number, storing nothing', async () => {
    const db = fresh();
    const csv = 'id,question,facts,sections\r\nq1,"How long, in days?",180 calendar days | 72 hours,(a)(3)\r\nq2,Who decides?,Qualified Independent Contractor,\r\n';
    const imported = await importDatasetFile(db, new File([csv], 'appeals sheet.csv', { type: 'text/csv' }));
    expect(imported).toMatchObject({ ok: true, dataset: { id: 'appeals-sheet', name: 'appeals sheet', items: 2 } });
    expect((await loadDataset(db, 'appeals-sheet'))?.items[0]).toEqual({ id: 'q1', inputs: { question: 'How long, in days?' }, expected: { facts: ['180 calendar days', '72 hours'] }, labels: { sections: ['(a)(3)'] } });
    const bad = await importDatasetFile(db, new File(['id,question\nq9,a\nq9,b\n'], 'dup.csv', { type: 'text/csv' }));
    expect(bad).toEqual({ ok: false, message: 'dup.csv, line 3: $.id: "q9" is used by an earlier line' });
    expect(await db.datasets.count()).toBe(1);
  });
});

describe('adding a run to a dataset', () => {
  it('appends to a stored dataset or starts a new one, checked like a line of a file; a refused item changes nothing', async () => {
    const db = fresh();
    await importDatasetFile(db, file('statute.dataset.jsonl', `${line('a')}\n${line('b')}\n`));
    const item = { id: 'run-1', inputs: { question: 'How long?' }, expected: { output: { answer: 'Within 180 calendar days.' }, facts: ['180 calendar days'], abstain: false } };
    expect(await addItemToDataset(db, { datasetId: 'statute' }, item)).toEqual({ ok: true, datasetId: 'statute', items: 3 });
    expect((await loadDataset(db, 'statute'))?.items.map((i) => i.id)).toEqual(['a', 'b', 'run-1']);
    expect((await listDatasets(db)).find((d) => d.id === 'statute')?.items).toBe(3);
    expect(await addItemToDataset(db, { datasetId: 'statute' }, item)).toEqual({ ok: false, message: '$.id: "run-1" is used by an earlier line' });
    expect(await addItemToDataset(db, { datasetId: 'statute' }, { ...item, id: 'x', expected: { route: 7 } })).toMatchObject({ ok: false, message: expect.stringContaining('$.expected.route') });
    expect(await db.datasetItems.where('datasetId').equals('statute').count()).toBe(3);
    expect(await addItemToDataset(db, { name: 'Corrections' }, item)).toEqual({ ok: true, datasetId: 'Corrections', items: 1 });
    expect(await addItemToDataset(db, { name: '  ' }, item)).toEqual({ ok: false, message: 'name the new dataset' });
  });
});

describe('database version 3 (datasets and evaluations)', () => {
  it('opens a version-2 database keeping what it held, with the new stores empty', async () => {
    const name = `datasets-${++counter}`;
    names.push(name);
    const v2 = new SeamscopeDb(name, DB_VERSIONS.filter((v) => v.version <= 2));
    await v2.chains.put({ id: 'c', name: 'C', updatedAt: 1, revision: 'r', chain: { format: 'seamscope.chain', version: 1, id: 'c', name: 'C', inputs: [], steps: [] } });
    await v2.runs.put({ id: 'run', traceVersion: 1, chainId: 'c', chainName: 'C', chainRevision: 'r', chain: {}, inputs: {}, provider: 'demo', model: 'm', status: 'succeeded', startedAt: 1 });
    v2.close();
    const v3 = new SeamscopeDb(name);
    await v3.open();
    expect(v3.verno).toBe(3);
    expect(await v3.chains.count()).toBe(1);
    expect((await v3.runs.get('run'))?.status).toBe('succeeded');
    expect(await v3.datasets.count()).toBe(0);
    expect(await v3.evalResults.count()).toBe(0);
    v3.close();
  });
});
