import { describe, expect, it } from 'vitest';
import { hashValue, stableStringify } from './hash.ts';

/** The text stableStringify wrote before it was rewritten for speed: every hash already stored depends on it staying the same. */
function reference(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`;
  const entries = Object.entries(value)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${JSON.stringify(k)}:${reference(v)}`);
  return `{${entries.join(',')}}`;
}

describe('stableStringify', () => {
  it('writes what it always wrote, whatever the keys, values and holes', () => {
    // eslint-disable-next-line no-sparse-arrays
    const sparse = [1, , 3];
    const values: unknown[] = [
      null, undefined, 0, -1.5, 'text', true, [], {}, sparse, [undefined, null, () => 1],
      { b: 1, a: [2, { d: undefined, c: 'x' }], 'é': 1, E: 2, '𝒳': 3, '\u00ff': 4, '10': 5, '9': 6, '': 7 },
      { model: 'gpt-4.1-mini', prompt: { system: 'Be brief', user: '{{question}}' }, params: { temperature: 0.2, maxTokens: 256 }, date: new Date(0) },
    ];
    for (const value of values) expect(stableStringify(value)).toBe(reference(value));
    expect(hashValue({ b: 1, a: 2 })).toBe(hashValue({ a: 2, b: 1 }));
  });
});
