import { describe, expect, it } from 'vitest';
import { csvRecords, readCsvDataset } from './dataset-csv.ts';

/** The text in chunks of `size` characters, so records and quoted fields straddle chunk ends. */
async function* chunked(text: string, size = 7) {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}
const records = async (text: string, size?: number) => {
  const out = [];
  for await (const r of csvRecords(chunked(text, size))) out.push(r);
  return out;
};

describe('csvRecords', () => {
  it('reads RFC 4180: quotes, doubled quotes, commas and newlines inside quotes, CRLF, across chunk ends', async () => {
    const text = 'id,question\r\nq1,"How long, in days?"\r\nq2,"He said ""no"".\nThen left."\r\nq3,plain\n';
    for (const size of [1, 3, 7, 1000]) {
      expect(await records(text, size)).toEqual([
        { line: 1, fields: ['id', 'question'] },
        { line: 2, fields: ['q1', 'How long, in days?'] },
        { line: 3, fields: ['q2', 'He said "no".\nThen left.'] },
        { line: 5, fields: ['q3', 'plain'] },
      ]);
    }
  });
});

describe('readCsvDataset', () => {
  const sheet = [
    'id,question,Gold facts,route,abstain,sections,notes',
    'appeal-days,How many days to appeal?,180 calendar days | 72 hours,,no,(a)(3)(C)(ii),checked by legal',
    'off-topic,"What is the capital of France?",,,yes,,',
    '"ticket-1","I was charged twice, refund please",,refund,,,',
  ].join('\n');

  it('maps columns by their headers, with a mapping for the rest; list cells split on " | "', async () => {
    const read = await readCsvDataset(chunked(sheet), { 'Gold facts': 'facts', notes: '-' }, 'Sheet');
    expect(read).toEqual({
      ok: true,
      dataset: {
        name: 'Sheet',
        items: [
          { id: 'appeal-days', inputs: { question: 'How many days to appeal?' }, expected: { facts: ['180 calendar days', '72 hours'], abstain: false }, labels: { sections: ['(a)(3)(C)(ii)'] } },
          { id: 'off-topic', inputs: { question: 'What is the capital of France?' }, expected: { abstain: true } },
          { id: 'ticket-1', inputs: { question: 'I was charged twice, refund please' }, expected: { route: 'refund' } },
        ],
      },
    });
  });

  it('refuses the file at the first bad row, with its line number', async () => {
    const fail = async (text: string, mapping = {}) => {
      const r = await readCsvDataset(chunked(text), mapping);
      return r.ok ? 'ok' : `line ${r.line}: ${r.message}`;
    };
    expect(await fail('question\nHow?')).toBe('line 1: no column maps to "id"');
    expect(await fail('id,question\nq1,a\nq1,b')).toBe('line 3: $.id: "q1" is used by an earlier line');
    expect(await fail('id,question\nq1,a,extra')).toBe('line 2: 3 cells, but the header has 2 columns');
    expect(await fail('id,abstain\nq1,maybe')).toBe('line 2: abstain must be true or false (yes/no, 1/0), not "maybe"');
    expect(await fail('id,question\nq1,"never closed\n')).toBe('line 2: a quoted field is never closed');
    expect(await fail('id,a.b\nq1,x')).toContain('line 1: column "a.b"');
    expect(await fail('id,question\nq1,x', { Question: 'inputs.question' })).toBe('line 1: the mapping names columns the header lacks: Question');
    expect(await fail('id,question\n')).toBe('line 1: the dataset has no items');
  });

  it('parses JSON-looking outputs for exact and json-field scorers, and keeps other text as text', async () => {
    const read = await readCsvDataset(chunked('id,output\na,"{""days"": 180}"\nb,180\nc,180 days\n'));
    expect(read.ok && read.dataset.items.map((i) => i.expected.output)).toEqual([{ days: 180 }, 180, '180 days']);
  });
});
