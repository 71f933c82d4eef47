import { describe, expect, it } from 'vitest';
import type { CountedUnit } from './grouping.ts';
import { partitionUnits } from './partition.ts';

const units = (tokens: number[], sections?: string[]): CountedUnit[] => tokens.map((t, i) => ({ id: String(i + 1), tokens: t, section: sections?.[i] ?? String(i + 1) }));
const sums = (groups: CountedUnit[][]) => groups.map((g) => g.reduce((n, u) => n + u.tokens, 0));

describe('partitionUnits', () => {
  it('makes exactly the number of groups asked for, contiguous and complete', () => {
    const all = units(Array.from({ length: 214 }, (_, i) => 150 + ((i * 37) % 80)));
    for (const count of [1, 2, 6, 9, 18, 214]) {
      const groups = partitionUnits(all, count);
      expect(groups).toHaveLength(count);
      expect(groups.flat().map((u) => u.id)).toEqual(all.map((u) => u.id));
    }
    // More groups than units: one unit each, never an empty group.
    expect(partitionUnits(units([5, 5]), 9)).toHaveLength(2);
  });

  it('balances by tokens: the largest group is as small as a contiguous cut allows', () => {
    // 2,000 tokens in three groups: no contiguous cut does better than 1,000 (the 900-token unit
    // needs a neighbour or leaves 1,000 on one side).
    expect(Math.max(...sums(partitionUnits(units([100, 900, 100, 100, 100, 100, 100, 100, 100, 300]), 3)))).toBe(1000);
    // Even units split evenly: 12 units of 10 in four groups are four groups of 30.
    expect(sums(partitionUnits(units(Array.from({ length: 12 }, () => 10)), 4))).toEqual([30, 30, 30, 30]);
  });

  it('keeps a section whole when a cut between sections is as good', () => {
    // Sections a (4 units) and b (4 units): two groups cut between them, not inside either.
    const all = units([10, 10, 10, 10, 10, 10, 10, 10], ['a', 'a', 'a', 'a', 'b', 'b', 'b', 'b']);
    expect(partitionUnits(all, 2).map((g) => g.map((u) => u.section))).toEqual([['a', 'a', 'a', 'a'], ['b', 'b', 'b', 'b']]);
    // Three groups cannot keep both sections whole: one section is cut at a unit boundary.
    const three = partitionUnits(all, 3);
    expect(three).toHaveLength(3);
    expect(three.flat()).toHaveLength(8);
  });
});
