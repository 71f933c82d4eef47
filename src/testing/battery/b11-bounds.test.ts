import { describe, expect, it } from 'vitest';
import { b11Bounds } from './b11-bounds.ts';

describe('battery B11: ReDoS, sizes and scale', () => {
  it('super-linear patterns finish, runaway sizes are refused, work grows linearly (quick sizes)', async () => {
    const result = await b11Bounds.run({ quick: true });
    expect(result.definedEnd).toBe(result.cases);
    // The time and memory limits are the battery's report (npm run battery), not this test's.
    expect(result.checks.filter((c) => !c.timed && !c.ok)).toEqual([]);
    expect(result.checks.filter((c) => !c.timed).length).toBeGreaterThanOrEqual(3);
  }, 180_000);
});
