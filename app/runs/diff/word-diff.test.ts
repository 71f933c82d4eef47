import { describe, expect, it } from 'vitest';
import { diffWordsOf } from './word-diff.ts';

const join = (spans: { text: string }[]) => spans.map((s) => s.text).join('');

describe('diffWordsOf', () => {
  it('marks the changed words only, and each side reads back as its text', () => {
    const a = 'Refunds take 30 days after the claim.';
    const b = 'Refunds take 45 business days after the claim.';
    const d = diffWordsOf(a, b);
    expect(d.aligned).toBe(true);
    expect(join(d.a)).toBe(a);
    expect(join(d.b)).toBe(b);
    expect(d.a.filter((s) => s.kind === 'removed').map((s) => s.text.trim())).toEqual(['30']);
    expect(d.b.filter((s) => s.kind === 'added').map((s) => s.text).join('')).toMatch(/45.*business/);
    expect(d.a.some((s) => s.kind === 'added') || d.b.some((s) => s.kind === 'removed')).toBe(false);
  });

  it('keeps newlines and indentation as text', () => {
    const d = diffWordsOf('{\n  "a": 1\n}', '{\n  "a": 2\n}');
    expect(join(d.b)).toBe('{\n  "a": 2\n}');
    expect(d.b.filter((s) => s.kind === 'added').map((s) => s.text)).toEqual(['2']);
  });

  it('gives up on texts too far apart, showing each whole', () => {
    const words = (seed: number) => Array.from({ length: 6000 }, (_, i) => `w${(i * seed) % 9973}`).join(' ');
    const d = diffWordsOf(words(7), words(13));
    expect(d.aligned).toBe(false);
    expect(d.a).toHaveLength(1);
    expect(d.b).toHaveLength(1);
  });
});
