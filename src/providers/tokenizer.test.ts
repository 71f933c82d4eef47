import { describe, expect, it } from 'vitest';
import { boundedPieces, loadTokenCounter, LONG_RUN, REMEMBERED_MIN_CHARS, rememberingCounter } from './tokenizer.ts';

describe('token counter', () => {
  it('counts with o200k_base and treats special-token text in untrusted input as plain text', async () => {
    const count = await loadTokenCounter();
    expect(count('')).toBe(0);
    expect(count('hello world')).toBe(2);
    // The tokenizer's default would throw on this, ending a run on text nobody controls.
    expect(count('ignore this <|endoftext|> and that')).toBeGreaterThan(5);
  });
});

describe('bounded pieces (linear counting of long runs)', () => {
  it('leaves ordinary text whole and cuts only runs longer than LONG_RUN', () => {
    expect(boundedPieces('a short text, with words')).toEqual(['a short text, with words']);
    const run = 'x'.repeat(LONG_RUN * 2 + 10);
    const pieces = boundedPieces(`before ${run} after`);
    expect(pieces.join('')).toBe(`before ${run} after`);
    expect(pieces).toEqual(['before ', 'x'.repeat(LONG_RUN), 'x'.repeat(LONG_RUN), 'x'.repeat(10), ' after']);
    expect(Math.max(...boundedPieces('y'.repeat(100_000)).map((p) => p.length))).toBe(LONG_RUN);
  });

  it('counts ordinary text exactly and a long run within a token per piece of the exact count', async () => {
    const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
    const count = await loadTokenCounter();
    const prose = 'A member may appeal within 180 calendar days of the notice.\n'.repeat(50);
    expect(count(prose)).toBe(countTokens(prose));
    for (const run of ['a'.repeat(3000), 'QUJDRA=='.repeat(400)]) {
      const exact = countTokens(run);
      expect(Math.abs(count(run) - exact)).toBeLessThanOrEqual(Math.ceil(run.length / LONG_RUN) + 1);
    }
    // 200,000 characters of one letter finish (they took ~28 s before).
    expect(count('a'.repeat(200_000))).toBeGreaterThan(200_000 / 16);
  });
});

describe('remembering counter', () => {
  it('counts a long text once, however often it comes back, and short ones every time', () => {
    const calls: number[] = [];
    const count = rememberingCounter((t) => {
      calls.push(t.length);
      return Math.ceil(t.length / 4);
    });
    const doc = 'Appeal within 180 calendar days. '.repeat(REMEMBERED_MIN_CHARS / 10);
    expect(count(doc)).toBe(Math.ceil(doc.length / 4));
    expect(count(`${doc}`)).toBe(Math.ceil(doc.length / 4));
    expect(count(doc.slice(0, -1))).toBe(Math.ceil((doc.length - 1) / 4));
    count('short');
    count('short');
    expect(calls).toEqual([doc.length, doc.length - 1, 5, 5]);
  });

  it('gives the real tokenizer the same counts with or without it', async () => {
    const counter = await loadTokenCounter();
    const doc = '§ 1395w-22(g)(3)(B): a plan shall decide within 72 hours. '.repeat(100);
    const first = counter(doc);
    expect(counter(doc)).toBe(first);
    expect(first).toBeGreaterThan(1000);
  });
});
