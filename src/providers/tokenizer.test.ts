import { describe, expect, it } from 'vitest';
import { boundedPieces, loadTokenCounter, LONG_RUN } from './tokenizer.ts';

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
