import { describe, expect, it } from 'vitest';
import { suiteMet } from '../../src/testing/index.ts';
import { b3DexieUpgrades } from './b3-dexie-upgrades.ts';

describe('battery B3: database upgrades', () => {
  it('upgrades every stored record intact, and a failed upgrade leaves the old data readable and unchanged', async () => {
    const result = await b3DexieUpgrades.run({ quick: true });
    expect(result.failures).toEqual([]);
    expect(result.dataLost).toBe(0);
    expect(result.definedEnd).toBe(result.cases);
    for (const check of result.checks) expect(check, check.name).toMatchObject({ ok: true });
    expect(suiteMet(result)).toBe(true);
  }, 120_000);
});
