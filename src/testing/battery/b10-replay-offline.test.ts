import { describe, expect, it } from 'vitest';
import { b10ReplayOffline } from './b10-replay-offline.ts';
import { demoChains } from './stored-runs.ts';
import { suiteMet } from './types.ts';

describe('battery B10: stored runs offline', () => {
  it('replays, inspects, diffs and exports every demo run and the corpus traces with 0 network requests', async () => {
    const result = await b10ReplayOffline.run({ quick: true });
    expect(result.failures).toEqual([]);
    expect(result.cases).toBeGreaterThan(demoChains().length);
    expect(result.networkRequests).toBe(0);
    expect(result.codeExecuted).toBe(0);
    expect(suiteMet(result)).toBe(true);
  }, 120_000);
});
