import { describe, expect, it } from 'vitest';
import { b8Malformed, MALFORMATIONS } from './b8-malformed.ts';
import { suiteMet } from './types.ts';

describe('battery B8: malformed model outputs', () => {
  it('each malformation is retried as configured, takes the configured path and never reaches a later prompt', async () => {
    const result = await b8Malformed.run({ quick: true });
    expect(result.failures).toEqual([]);
    expect(result.cases).toBe(MALFORMATIONS.length * 4);
    expect(result.definedEnd).toBe(result.cases);
    expect(result.codeExecuted).toBe(0);
    expect(result.networkRequests).toBe(0);
    for (const check of result.checks) expect(check, check.name).toMatchObject({ ok: true });
    expect(suiteMet(result)).toBe(true);
  }, 120_000);
});
