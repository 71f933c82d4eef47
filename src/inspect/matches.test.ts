import { describe, expect, it } from 'vitest';
import { matchesOf } from './matches.ts';

const same = (re: RegExp, text: string) => {
  const ours = [...matchesOf(re, text)].map((m) => [m.index, ...m]);
  const theirs = [...text.matchAll(new RegExp(re.source, re.flags))].map((m) => [m.index, ...m]);
  expect(ours).toEqual(theirs);
  return ours;
};

describe('matchesOf', () => {
  it('finds what matchAll finds, groups and positions included', () => {
    expect(same(/(\d+) (days?)/g, 'Within 60 days, or 1 day after 180 days.')).toHaveLength(3);
    same(/(?<![\w.])\d+(?:\.\d+)?/gi, 'Section 7.2: 30 and 4.5, then 12');
  });

  it('steps past zero-length matches, by whole code points in unicode mode', () => {
    expect(same(/x*/g, 'axxb')).toHaveLength(4);
    expect(same(/(?:)/gu, 'a😀b')).toHaveLength(4);
  });

  it('is not disturbed by the same pattern used inside its loop', () => {
    const re = /\d+/g;
    const seen: string[] = [];
    for (const m of matchesOf(re, '1 22 333')) {
      seen.push(m[0]);
      expect([...matchesOf(re, 'inner 9 99')].map((x) => x[0])).toEqual(['9', '99']);
    }
    expect(seen).toEqual(['1', '22', '333']);
  });

  it('leaves the pattern at the start when a loop stops early', () => {
    const re = /\d/g;
    for (const m of matchesOf(re, 'a1b2c3')) if (m[0] === '2') break;
    expect(re.lastIndex).toBe(0);
    expect(re.test('x9')).toBe(true);
  });

  it('refuses a pattern that is not global, as matchAll does', () => {
    expect(() => [...matchesOf(/a/, 'aaa')]).toThrow(/global/);
  });
});
