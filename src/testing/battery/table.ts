import { suiteMet, type BatterySuite, type SuiteResult } from './types.ts';

/** One row of the battery table: a suite and what it counted, or the error that stopped it. */
export interface BatteryRow {
  suite: Pick<BatterySuite, 'id' | 'title' | 'target'>;
  result: SuiteResult | null;
  error?: string;
  ok: boolean;
}

const HEAD = ['suite', 'cases', 'defined end', 'data lost', 'net requests', 'code executed', 'worst ms', 'worst heap MB', 'target', 'result'];

const figure = (value: number | null | undefined, digits = 0) => (value === null || value === undefined ? '—' : value.toFixed(digits));

export function rowCells(row: BatteryRow): string[] {
  const r = row.result;
  return [
    `${row.suite.id} ${row.suite.title}`,
    figure(r?.cases), r ? `${r.definedEnd}/${r.cases}` : '—', figure(r?.dataLost), figure(r?.networkRequests), figure(r?.codeExecuted),
    figure(r?.worstMs), figure(r?.worstHeapMb), row.suite.target, row.ok ? 'ok' : 'MISSED',
  ];
}

/** The battery as one plain-text table (Markdown pipes, so it pastes into a note as is). */
export function formatBatteryTable(rows: readonly BatteryRow[]): string {
  const lines = [HEAD, HEAD.map(() => '---'), ...rows.map(rowCells)];
  const widths = HEAD.map((_, i) => Math.max(...lines.map((l) => (l[i] ?? '').length)));
  return lines.map((cells) => `| ${cells.map((c, i) => (c === '---' ? '-'.repeat(widths[i] ?? 3) : c.padEnd(widths[i] ?? 0))).join(' | ')} |`).join('\n');
}

/** Runs suites one after another (they share ports, the clock and the heap figure) into rows. */
export async function runSuites(suites: readonly BatterySuite[], opts: { quick?: boolean; onStart?: (s: BatterySuite) => void } = {}): Promise<BatteryRow[]> {
  const rows: BatteryRow[] = [];
  for (const suite of suites) {
    opts.onStart?.(suite);
    try {
      const result = await suite.run({ quick: opts.quick });
      rows.push({ suite, result, ok: suiteMet(result) });
    } catch (error) {
      // A suite that throws has not shown its target: a miss, never a skip.
      rows.push({ suite, result: null, error: (error as Error).stack ?? String(error), ok: false });
    }
  }
  return rows;
}
