import 'fake-indexeddb/auto';
import { readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseChain } from '../../src/chain/parse.ts';
import { stepRegistry } from '../../src/steps/index.ts';
import { useChainDatasets } from '../persistence/chain-datasets.ts';
import { addItemToDataset, deleteDataset, storeDataset } from '../persistence/datasets.ts';
import { db } from '../persistence/db.ts';
import { conditionFindingsNow, conditionsNow, edgeConditions, questionsOf } from './condition-needs.ts';

const demoDir = new URL('../../public/demo/', import.meta.url);
const parsed = parseChain(readFileSync(new URL('summarise-handbook-condition.chain.json', demoDir), 'utf8'), stepRegistry);
if (!parsed.ok) throw new Error('the handbook demo chain does not parse');
const chain = parsed.chain;
const EDGE = 'data:summarise->answer:summary';
const item = (id: string, question: string) => ({ id, inputs: { question }, expected: { facts: [] } });

describe('the conditions a chain\'s handoff needs, for the dataset it is evaluated on', () => {
  // The demo documents as the app's server serves them: the files under public/demo.
  beforeAll(() => {
    vi.stubGlobal('fetch', async (url: string) => {
      const path = decodeURIComponent(String(url).replace(/^\/demo\//, ''));
      try {
        return new Response(await readFile(new URL(path, demoDir), 'utf8'));
      } catch {
        return new Response('', { status: 404 });
      }
    });
  });
  afterAll(() => vi.unstubAllGlobals());

  it('reads each item\'s text inputs per input name', () => {
    expect(questionsOf({ items: [item('a', 'Is it final?'), { id: 'b', inputs: { question: '  ', n: 3 }, expected: {} }, { id: 'c', inputs: { question: 'Can I appeal?', other: 'x' }, expected: {} }] }))
      .toEqual({ question: ['Is it final?', 'Can I appeal?'], other: ['x'] });
  });

  it('reads the linked dataset\'s questions, names it, and follows a new link and an item added', async () => {
    const alone = await edgeConditions(chain, EDGE);
    expect(alone?.fromDataset).toBeNull();
    expect(alone?.conditions.map((c) => c.text)).not.toContain('no deductible');

    const handbook = await storeDataset(db, 'handbook.jsonl', { name: 'Handbook questions', items: [item('q1', 'Do I have to pay the deductible before my cleaning is covered?')] });
    const other = await storeDataset(db, 'other.jsonl', { name: 'Other questions', items: [item('q1', 'Does filing a grievance give me more time to appeal?')] });
    useChainDatasets.getState().link([chain.id], handbook.id);
    const linked = await edgeConditions(chain, EDGE);
    expect(linked?.fromDataset).toEqual({ name: 'Handbook questions', questions: 1 });
    expect(linked?.conditions.map((c) => c.text)).toContain('no deductible');
    expect(conditionFindingsNow(chain)?.[0]?.message).toContain('is asked 2 questions (1 from dataset “Handbook questions”)');

    // Linked to another dataset: that dataset's questions, not the first one's (nothing kept from before).
    useChainDatasets.getState().link([chain.id], other.id);
    expect(conditionsNow(chain)).toBeUndefined();
    expect((await edgeConditions(chain, EDGE))?.fromDataset).toEqual({ name: 'Other questions', questions: 1 });

    // An item added to the linked dataset (from a run) is read at the next look.
    await addItemToDataset(db, { datasetId: other.id }, item('q2', 'Do I have to pay the deductible before my cleaning is covered?'));
    const grown = await edgeConditions(chain, EDGE);
    expect(grown?.fromDataset).toEqual({ name: 'Other questions', questions: 2 });
    expect(grown?.conditions.map((c) => c.text)).toContain('no deductible');
  });

  it('a dataset deleted and another imported under the same name and size is read anew, not taken for the old one', async () => {
    const first = await storeDataset(db, 'same.jsonl', { name: 'Same name', items: [item('q1', 'Do I have to pay the deductible before my cleaning is covered?')] }, 1_000);
    useChainDatasets.getState().link([chain.id], first.id);
    expect((await edgeConditions(chain, EDGE))?.conditions.map((c) => c.text)).toContain('no deductible');
    await deleteDataset(db, first.id);
    // The same name gives the same id, and one item again: only the import tells them apart.
    const second = await storeDataset(db, 'same.jsonl', { name: 'Same name', items: [item('q1', 'Does filing a grievance give me more time to appeal?')] }, 2_000);
    expect(second.id).toBe(first.id);
    expect((await edgeConditions(chain, EDGE))?.conditions.map((c) => c.text)).not.toContain('no deductible');
  });
});
