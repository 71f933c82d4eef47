import { describe, expect, it } from 'vitest';
import { estimateCompounding } from './compounding.ts';

describe('estimateCompounding', () => {
  it('reproduces seed 002: five steps at 5% error, 0.774 unchecked, 0.941 with 80% gates and a 95% retry', () => {
    const rates = Array.from({ length: 5 }, (_, i) => ({ stepId: `s${i}`, errorRate: 0.05, catchRate: 0.8, retrySuccess: 0.95 }));
    const estimate = estimateCompounding(rates);
    expect(estimate.ungated).toBeCloseTo(0.774, 3);
    expect(estimate.gated).toBeCloseTo(0.941, 3);
    expect(estimate.perStep[0]?.slip).toBeCloseTo(0.012, 6);
    expect(estimate.explanation).toBe('unchecked: 0.95^5 = 0.774; with gates and one retry: 0.988^5 = 0.941');
  });

  it('writes out mixed rates as a product', () => {
    const estimate = estimateCompounding([{ stepId: 'a', errorRate: 0.1, catchRate: 0, retrySuccess: 0 }, { stepId: 'b', errorRate: 0.02, catchRate: 1, retrySuccess: 1 }]);
    expect(estimate.gated).toBeCloseTo(0.9, 10);
    expect(estimate.explanation).toContain('0.9 × 0.98 = 0.882');
  });

  it('counts errors no check sees (a lossy handoff) whatever the gates', () => {
    const estimate = estimateCompounding([
      { stepId: 'summarise', errorRate: 0, catchRate: 0.3, retrySuccess: 0.95, uncaughtRate: 1 },
      { stepId: 'answer', errorRate: 0.1, catchRate: 0, retrySuccess: 0 },
    ]);
    expect(estimate.ungated).toBe(0);
    expect(estimate.gated).toBe(0);
    expect(estimate.perStep[0]?.slip).toBe(1);
    expect(estimate.perStep[0]?.formula).toContain('uncaught');
    expect(estimate.explanation).toMatch(/uncaught by any check \(lossy handoffs\): summarise 1$/);
    const half = estimateCompounding([{ stepId: 'a', errorRate: 0.1, catchRate: 1, retrySuccess: 1, uncaughtRate: 0.5 }]);
    expect(half.gated).toBeCloseTo(0.5, 10);
    expect(half.ungated).toBeCloseTo(0.45, 10);
  });
});
