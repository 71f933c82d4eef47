import { describe, expect, it } from 'vitest';
import { benchLines, headlines, met } from './headlines.ts';

describe('bench headlines', () => {
  it('reads each bench’s JSON line and judges each figure against its target', () => {
    const output = [
      'some table | 1 |',
      '{"bench":"engine","w1":1.08,"w1s":1.6,"w2":1.0,"w3_throughput":0.95,"w3_memory":1.1,"w4":1.5}',
      '{"bench":"batch-postgres","items":2000,"perS":190,"fraction":0.59}',
      '{"bench":"scale","heap":{"small":10,"large":38,"nSmall":5000,"nLarge":20000},"rows":[{"case":"seamscope run process, gate line (steps)","growth":2.1},{"case":"seamscope run in process, map (units)","growth":5.5,"sizeRatio":5},{"case":"facts, no newlines (bytes)","growth":5}]}',
      '{"bench": broken',
    ].join('\n');
    const rows = headlines(benchLines(output));
    const byFigure = new Map(rows.map((r) => [r.figure, r]));
    expect(met(byFigure.get('W1 ms/step × fetch+ajv floor')!)).toBe(true);
    expect(met(byFigure.get('W1s (streaming) × floor')!)).toBe(false);
    expect(met(byFigure.get('BullMQ on PostgreSQL, fraction of the ideal')!)).toBe(false);
    expect(met(byFigure.get('seamscope run process, gate line (steps) growth')!)).toBe(true);
    // In process, linear growth is the size ratio itself (with a quarter's room).
    expect(met(byFigure.get('seamscope run in process, map (units) growth')!)).toBe(true);
    // Only the step and unit growth rows are headlines; byte and character cases have absolute limits.
    expect(rows.some((r) => r.figure.startsWith('facts'))).toBe(false);
    expect(byFigure.get('peak live heap 20000 ÷ 5000 steps')?.value).toBeCloseTo(3.8);
  });

  it('calls a figure the bench did not print missing, not met', () => {
    const [row] = headlines(benchLines('{"bench":"cli"}'));
    expect(row?.value).toBeNull();
    expect(met(row!)).toBeNull();
  });
});
