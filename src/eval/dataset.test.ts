import { describe, expect, it } from 'vitest';
import { MAX_LINE_CHARS, readDataset, readDatasetText, textLines } from './dataset.ts';

const item = (id: string, extra: Record<string, unknown> = {}) => JSON.stringify({ id, inputs: { question: `q ${id}` }, expected: { facts: ['180 days'] }, ...extra });

async function* chunks(parts: string[]) {
  for (const p of parts) yield p;
}

describe('readDataset', () => {
  it('reads items line by line across chunk boundaries, with a header and CRLF endings', async () => {
    const text = `{"format":"seamscope.dataset","version":1,"name":"statute","scorers":[{"type":"facts"}]}\r\n${item('a')}\r\n\r\n${item('b')}`;
    const parts = text.match(/.{1,7}/gs) ?? [];
    const read = await readDataset(textLines(chunks(parts)));
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.dataset.name).toBe('statute');
    expect(read.dataset.scorers).toEqual([{ type: 'facts' }]);
    expect(read.dataset.items.map((i) => i.id)).toEqual(['a', 'b']);
    expect(read.dataset.items[0]?.expected.facts).toEqual(['180 days']);
  });

  it('refuses the first bad line with its number: bad JSON, an unknown key, a duplicate id, a late header', async () => {
    expect(await readDatasetText(`${item('a')}\n{"id": "b",`)).toMatchObject({ ok: false, line: 2, message: expect.stringContaining('not valid JSON') });
    expect(await readDatasetText(`${item('a')}\n${item('b', { expected: { answer: 1 } })}`)).toMatchObject({ ok: false, line: 2, message: expect.stringContaining('$.expected') });
    expect(await readDatasetText(`${item('a')}\n${item('a')}`)).toMatchObject({ ok: false, line: 2, message: '$.id: "a" is used by an earlier line' });
    expect(await readDatasetText(`${item('a')}\n{"format":"seamscope.dataset","version":1}`)).toMatchObject({ ok: false, line: 2, message: expect.stringContaining('header') });
    expect(await readDatasetText(`{"id":"x","inputs":{},"expected":{"facts":"180 days"}}`)).toMatchObject({ ok: false, line: 1, message: expect.stringContaining('$.expected.facts') });
    expect(await readDatasetText('\n\n')).toMatchObject({ ok: false, message: 'the dataset has no items' });
    expect(await readDatasetText(`{"__proto__":{"x":1},"id":"a","inputs":{}}`)).toMatchObject({ ok: false, line: 1 });
  });

  it('refuses an unending line without holding it whole', async () => {
    async function* endless() {
      for (let i = 0; i < 100; i++) yield 'x'.repeat(100_000);
    }
    const read = await readDataset(textLines(endless()));
    expect(read).toMatchObject({ ok: false, line: 1, message: `the line is longer than ${MAX_LINE_CHARS.toLocaleString('en-US')} characters` });
  });

  it('refuses more than 100,000 lines, naming the line', async () => {
    async function* many() {
      for (let i = 0; i <= 100_000; i++) yield `${item(`i${i}`)}\n`;
    }
    expect(await readDataset(textLines(many()))).toMatchObject({ ok: false, line: 100_001 });
  });
});
