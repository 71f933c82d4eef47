import { describe, expect, it } from 'vitest';
import { b4HostileFiles } from './b4-hostile-files.ts';

describe('battery B4: hostile files', () => {
  it('each is refused with its path (or accepted where it must work), nothing beside it changes, no request, no code', async () => {
    const result = await b4HostileFiles.run({ quick: true });
    expect(result.failures).toEqual([]);
    // The time and memory limit is the battery's report, not this test's.
    expect(result.checks.filter((c) => !c.timed && !c.ok)).toEqual([]);
    expect(result.networkRequests).toBe(0);
    expect(result.codeExecuted).toBe(0);
  }, 120_000);
});
