import { describe, expect, it } from 'vitest';
import { b1Faults, FAULT_KINDS } from './b1-faults.ts';
import { suiteMet } from './types.ts';

describe('battery B1: transport faults', () => {
  it('every fault kind on both protocols ends defined, loses no completed step and never passes a cut stream on', async () => {
    const result = await b1Faults.run({ quick: true });
    expect(result.failures).toEqual([]);
    expect(FAULT_KINDS.length).toBeGreaterThanOrEqual(20);
    expect(result.cases).toBeGreaterThanOrEqual(2 * FAULT_KINDS.length);
    expect(result.definedEnd).toBe(result.cases);
    expect(result.dataLost).toBe(0);
    expect(result.networkRequests).toBe(0);
    expect(result.checks.find((c) => c.name === 'cut streams detected')?.ok).toBe(true);
    expect(suiteMet(result)).toBe(true);
  }, 120_000);
});
