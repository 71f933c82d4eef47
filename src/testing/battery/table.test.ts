import { describe, expect, it } from 'vitest';
import { formatBatteryTable, runSuites } from './table.ts';
import type { BatterySuite, SuiteResult } from './types.ts';

const result = (checks: SuiteResult['checks']): SuiteResult => ({ cases: 3, definedEnd: 3, dataLost: 0, networkRequests: 0, codeExecuted: null, worstMs: 12.4, worstHeapMb: 40, checks, failures: [] });
const suite = (id: string, run: () => Promise<SuiteResult>): BatterySuite => ({ id, title: `suite ${id}`, target: 'a target', run });

describe('battery runner', () => {
  it('a suite meets its target only with checks that all pass; one that throws or checks nothing is a miss', async () => {
    const rows = await runSuites([
      suite('T1', async () => result([{ name: 'a', ok: true, detail: '1' }])),
      suite('T2', async () => result([{ name: 'a', ok: true, detail: '1' }, { name: 'b', ok: false, detail: '2' }])),
      suite('T3', async () => result([])),
      suite('T4', async () => {
        throw new Error('boom');
      }),
    ]);
    expect(rows.map((r) => r.ok)).toEqual([true, false, false, false]);
    expect(rows[3]?.error).toContain('boom');
    const table = formatBatteryTable(rows);
    expect(table.split('\n')).toHaveLength(6);
    expect(table).toMatch(/T1 suite T1 +\| 3 +\| 3\/3 +\| 0 +\| 0 +\| — +\| 12 +\| 40 .*\| ok/);
    expect(table).toMatch(/T4 suite T4 +\| — .*MISSED/);
  });
});
