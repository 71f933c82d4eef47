import { describe, expect, it } from 'vitest';
import { medianInterval } from './median-interval.ts';

describe('medianInterval', () => {
  it('gives no interval for too few repeats', () => {
    expect(medianInterval([1, 2, 3, 4, 5])).toBeNull();
    expect(medianInterval([1, 2, 3, Number.NaN, 5, 6])).toBeNull();
  });

  it('brackets the median by order statistics, whatever the order of the values', () => {
    const values = Array.from({ length: 40 }, (_, i) => 1 + i / 100).reverse();
    const [lo, hi] = medianInterval(values) as [number, number];
    // n = 40: ranks ⌊20 − 6.2⌋ and ⌈21 + 6.2⌉ → the 13th and the 28th smallest.
    expect(lo).toBeCloseTo(1.12);
    expect(hi).toBeCloseTo(1.27);
    expect(lo).toBeLessThan(1.195);
    expect(hi).toBeGreaterThan(1.195);
  });

  it('covers the true median of a skewed population about 95 % of the time', () => {
    // Deterministic pseudo-random draws from an exponential distribution (median ln 2).
    let seed = 7;
    const next = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    let covered = 0;
    const trials = 2000;
    for (let t = 0; t < trials; t++) {
      const sample = Array.from({ length: 40 }, () => -Math.log(1 - next()));
      const [lo, hi] = medianInterval(sample) as [number, number];
      if (lo <= Math.LN2 && Math.LN2 <= hi) covered++;
    }
    expect(covered / trials).toBeGreaterThan(0.93);
    expect(covered / trials).toBeLessThan(0.995);
  });
});
