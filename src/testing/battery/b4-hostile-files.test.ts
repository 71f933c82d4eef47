import { describe, expect, it } from 'vitest';
import { b4HostileFiles } from './b4-hostile-files.ts';
import { suiteMet } from './types.ts';

describe('battery B4: hostile files', () => {
  it('each is refused with its path (or accepted where it must work), nothing beside it changes, no request, no code', async () => {
    const result = await b4HostileFiles.run({ quick: true });
    expect(result.failures).toEqual([]);
    expect(result.checks.filter((c) => !c.ok)).toEqual([]);
    expect(result.networkRequests).toBe(0);
    expect(result.codeExecuted).toBe(0);
    expect(suiteMet(result)).toBe(true);
  }, 120_000);
});
