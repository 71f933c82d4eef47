import { describe, expect, it } from 'vitest';
import { loadTokenCounter } from './tokenizer.ts';

describe('token counter', () => {
  it('counts with o200k_base and treats special-token text in untrusted input as plain text', async () => {
    const count = await loadTokenCounter();
    expect(count('')).toBe(0);
    expect(count('hello world')).toBe(2);
    // The tokenizer's default would throw on this, ending a run on text nobody controls.
    expect(count('ignore this <|endoftext|> and that')).toBeGreaterThan(5);
  });
});
