import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { splitSections } from '../steps/sections.ts';
import { readDatasetText } from './dataset.ts';

const demo = (path: string) => readFile(new URL(`../../public/demo/${path}`, import.meta.url), 'utf8');

describe('the demo statute dataset', () => {
  it('has 40 hand-written questions whose gold facts are in the statute, in their gold sections', async () => {
    const read = await readDatasetText(await demo('datasets/statute-appeals.dataset.jsonl'));
    if (!read.ok) throw new Error(`line ${read.line}: ${read.message}`);
    const { items } = read.dataset;
    expect(items).toHaveLength(40);
    const statute = await demo('documents/42-USC-1395ff.md');
    const sections = new Map(splitSections(statute).map((s) => [s.id, s.text]));
    for (const item of items) {
      if (item.expected.abstain) continue;
      const gold = item.labels?.sections ?? [];
      expect(gold.length, item.id).toBeGreaterThan(0);
      for (const id of gold) expect(sections.has(id), `${item.id}: section ${id}`).toBe(true);
      // Each fact is written as the statute writes it, inside one of the item's gold sections.
      for (const fact of item.expected.facts ?? []) expect(gold.some((id) => sections.get(id)?.includes(fact)), `${item.id}: ${fact}`).toBe(true);
    }
    expect(items.filter((i) => i.expected.abstain).length).toBe(3);
  });
});

describe('the demo support-ticket dataset', () => {
  it('has 30 hand-written tickets, each expecting a terminal of the support-ticket chain', async () => {
    const read = await readDatasetText(await demo('datasets/support-tickets.dataset.jsonl'));
    if (!read.ok) throw new Error(`line ${read.line}: ${read.message}`);
    const chain = JSON.parse(await demo('support-ticket.chain.json')) as { steps: { id: string }[] };
    const ids = new Set(chain.steps.map((s) => s.id));
    expect(read.dataset.items).toHaveLength(30);
    for (const item of read.dataset.items) expect(ids.has(item.expected.route ?? ''), item.id).toBe(true);
    expect(new Set(read.dataset.items.map((i) => i.expected.route))).toEqual(new Set(['to_human', 'reply']));
  });
});
