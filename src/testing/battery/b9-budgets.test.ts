import { describe, expect, it } from 'vitest';
import { b9Budgets } from './b9-budgets.ts';
import { suiteMet } from './types.ts';

describe('battery B9: run budgets', () => {
  // One sweep per process: a second sweep's network trap would also see the first one's
  // cancelled connections winding down.
  it('every limit stops the run (or lets a chain that fits succeed), past it by at most one request in flight', async () => {
    const result = await b9Budgets.run();
    expect(result.failures).toEqual([]);
    expect(result.definedEnd).toBe(result.cases);
    expect(result.networkRequests).toBe(0);
    expect(result.checks.filter((c) => !c.ok)).toEqual([]);
    expect(suiteMet(result)).toBe(true);
  }, 240_000);
});
