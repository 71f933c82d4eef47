import { describe, expect, it } from 'vitest';
import type { TruncationRecord } from '../../../src/trace/index.ts';
import { arrayElements, markedUnits, summariseTruncation } from './truncation-text.ts';

const chunks = [1, 2, 3, 4, 5].map((n) => ({ section_id: `s${n}`, heading: `Heading ${n}`, text: `Body ${n} ${'x'.repeat(40)}` }));
const full = JSON.stringify(chunks, null, 2);

function record(keptLength: number, from: 'end' | 'start' = 'end'): { t: TruncationRecord; kept: string } {
  const kept = from === 'end' ? full.slice(0, keptLength) : full.slice(full.length - keptLength);
  const cut = from === 'end' ? full.slice(keptLength) : full.slice(0, full.length - keptLength);
  return { t: { binding: 'chunks', from, budget: 4000, totalBefore: 5240, totalAfter: 4000, bindingTokensBefore: 3000, bindingTokensKept: 1760, cutText: cut }, kept };
}

describe('truncation summary', () => {
  it('finds the elements of a JSON array, strings and nesting respected', () => {
    expect(arrayElements(full)?.map((s) => s.label)).toEqual(['s1 "Heading 1"', 's2 "Heading 2"', 's3 "Heading 3"', 's4 "Heading 4"', 's5 "Heading 5"']);
    expect(arrayElements('["a, b", "[c]", 3]')?.length).toBe(3);
    expect(arrayElements('not an array')).toBeNull();
  });

  it('counts chunks read in full, read in part and not read, when the end was cut', () => {
    const fourth = full.indexOf('"s4"');
    const { t, kept } = record(fourth + 20);
    const s = summariseTruncation(t, kept);
    expect(s.units).toEqual({ total: 5, full: 3, partial: 1, unread: ['s5 "Heading 5"'] });
    expect(s.sentence).toBe('Given 5 chunks, read 3 in full and part of the 4th: the budget of 4,000 tokens cut 1,240 tokens from the end of {chunks}. Not read at all: s5 "Heading 5".');
  });

  it('says "read 4" when the cut falls between chunks', () => {
    const fifth = full.lastIndexOf('{');
    const { t, kept } = record(fifth - 1);
    expect(summariseTruncation(t, kept).sentence).toMatch(/^Given 5 chunks, read 4: the budget of 4,000 tokens cut 1,240 tokens from the end of \{chunks\}\. Not read at all: s5/);
  });

  it('handles a cut from the start', () => {
    const second = full.indexOf('"s2"');
    const { t, kept } = record(full.length - second - 10, 'start');
    const s = summariseTruncation(t, kept);
    expect(s.units).toMatchObject({ total: 5, full: 3, partial: 1, unread: ['s1 "Heading 1"'] });
    expect(s.sentence).toContain('part of the 2nd');
  });

  it('counts [chunk n] markers in plain text, and falls back to tokens alone', () => {
    const text = ['[chunk 1] alpha', '[chunk 2] beta', '[chunk 3] gamma'].join('\n');
    expect(markedUnits(text)?.length).toBe(3);
    const t: TruncationRecord = { binding: 'context', from: 'end', budget: 100, totalBefore: 120, totalAfter: 100, bindingTokensBefore: 30, bindingTokensKept: 10, cutText: text.slice(20) };
    expect(summariseTruncation(t, text.slice(0, 20)).sentence).toMatch(/^Given 3 chunks, read 1 in full and part of the 2nd/);
    expect(summariseTruncation({ ...t, cutText: 'plain prose' }, 'more plain prose').sentence).toBe('The budget of 100 tokens cut 20 tokens from the end of {context}: 10 of its 30 tokens were kept.');
  });
});
