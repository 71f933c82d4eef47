/**
 * The headline figure of every bench against its target, from the JSON line each bench prints
 * last (`{"bench": "engine", …}`). One table, so a regression shows at a glance; `npm run bench`
 * (scripts/bench-all.ts) runs the benches and prints it. The targets are the issues' own; a
 * figure a bench did not print (a bench skipped, a round that needs PostgreSQL) is shown as
 * missing, never as met.
 */
import { FIRST_PAINT_GZIP_KIB } from '../first-paint-budget.ts';

export interface Headline {
  bench: string;
  figure: string;
  value: number | null;
  /** `max`: the figure must be at most the target; `min`: at least. */
  target: { max: number } | { min: number };
  unit?: string;
}

export type BenchLine = Record<string, unknown> & { bench: string };

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const at = (v: unknown, ...path: (string | number)[]): unknown => path.reduce<unknown>((o, k) => (o !== null && typeof o === 'object' ? (o as Record<string | number, unknown>)[k] : undefined), v);

/** Targets, one place: the issues' limits (#27 for speed, #11 for growth, #14 for eval, #15 for batch, #10 for survival). */
export const TARGETS = {
  engineW1: 1.1,
  engineW1s: 1.5,
  engineW2: 1.02,
  engineW3Throughput: 0.8,
  engineW3Memory: 1.2,
  engineW4: 2,
  /** Run growth, 5,000 ÷ 1,000 steps (or units), through `seamscope run`. */
  scaleCliGrowth: 3,
  /** Growth of the engine-only run and inspect (the older #11 limit). */
  scaleEngineGrowth: 6,
  canvasReadyRatio: 1.25,
  canvasEvalPanRatio: 1.15,
  canvasFrameMs: 33.4,
  /** The first-paint budget `vite build` enforces (scripts/first-paint-budget.ts). */
  initialJsGzipKiB: FIRST_PAINT_GZIP_KIB,
  cliColdRatio: 3,
  evalThroughputRatio: 0.9,
  evalHeapGrowth: 1.2,
  batchRedisFraction: 0.8,
  batchPostgresFraction: 0.75,
  survivalLossyRecall: 0.95,
  survivalLossyPrecision: 0.9,
  /** #29: dropped conditions found on the condition questions. */
  survivalConditionLossyRecall: 0.9,
  survivalFalseAlarms: 0.05,
  inspectMedianMs: 20,
  /** #32: spans lost by `seamscope collect` under 8 exporters × 1,000 spans/s. */
  collectLostSpans: 0,
} as const;

type Extractor = (line: BenchLine) => Omit<Headline, 'bench'>[];

const EXTRACTORS: Record<string, Extractor> = {
  engine: (l) => [
    { figure: 'W1 ms/step × fetch+ajv floor', value: num(l.w1), target: { max: TARGETS.engineW1 } },
    { figure: 'W1s (streaming) × floor', value: num(l.w1s), target: { max: TARGETS.engineW1s } },
    { figure: 'W2 fan-out wall × floor', value: num(l.w2), target: { max: TARGETS.engineW2 } },
    { figure: 'W3 map items/s ÷ floor', value: num(l.w3_throughput), target: { min: TARGETS.engineW3Throughput } },
    { figure: 'W3 peak RSS × floor', value: num(l.w3_memory), target: { max: TARGETS.engineW3Memory } },
    { figure: 'W4 import+build × floor', value: num(l.w4), target: { max: TARGETS.engineW4 } },
  ],
  scale: (l) => {
    const rows = Array.isArray(l.rows) ? (l.rows as Record<string, unknown>[]) : [];
    const out: Omit<Headline, 'bench'>[] = rows
      .filter((r) => typeof r.case === 'string' && /\((steps|units)\)$/.test(r.case))
      .map((r) => ({
        figure: `${String(r.case)} growth`,
        value: num(r.growth),
        // The process rows carry #27's limit; the in-process rows, linear growth (1.25× the size ratio).
        target: { max: String(r.case).startsWith('seamscope run process') ? TARGETS.scaleCliGrowth : String(r.case).startsWith('seamscope run in process') ? Number(r.sizeRatio ?? 5) * 1.25 : TARGETS.scaleEngineGrowth },
        unit: '×',
      }));
    const heap = l.heap as { small?: number; large?: number; nSmall?: number; nLarge?: number } | null | undefined;
    if (heap && num(heap.small) && num(heap.large) && num(heap.nSmall) && num(heap.nLarge)) {
      out.push({ figure: `peak live heap ${heap.nLarge} ÷ ${heap.nSmall} steps`, value: (heap.large as number) / (heap.small as number), target: { max: ((heap.nLarge as number) / (heap.nSmall as number)) * 1.5 }, unit: '×' });
    }
    return out;
  },
  canvas: (l) => [
    ...[1000, 3000].flatMap((n) => [
      { figure: `ready × bare React Flow, ${n} steps`, value: num(at(l, `n${n}`, 'readyRatio')), target: { max: TARGETS.canvasReadyRatio } },
      { figure: `pan/zoom p95 during an eval ÷ idle, ${n} steps`, value: num(at(l, `n${n}`, 'evalPanRatio')), target: { max: TARGETS.canvasEvalPanRatio } },
      { figure: `pan/zoom p95 ms, ${n} steps`, value: num(at(l, `n${n}`, 'panP95')), target: { max: TARGETS.canvasFrameMs }, unit: 'ms' },
      { figure: `drag input→frame p95 ms, ${n} steps`, value: num(at(l, `n${n}`, 'dragP95')), target: { max: TARGETS.canvasFrameMs }, unit: 'ms' },
    ]),
    { figure: 'initial JS gzip KiB', value: num(l.initialJsGzipKiB), target: { max: TARGETS.initialJsGzipKiB }, unit: 'KiB' },
  ],
  cli: (l) => [{ figure: 'cold validate × node -e 0', value: num(l.ratio), target: { max: TARGETS.cliColdRatio } }],
  eval: (l) => [
    { figure: 'eval items/s ÷ promise pool', value: num(l.throughputRatio), target: { min: TARGETS.evalThroughputRatio } },
    { figure: 'eval heap growth, ¼ → whole batch', value: num(l.heapGrowth), target: { max: TARGETS.evalHeapGrowth } },
  ],
  batch: (l) => [
    { figure: 'BullMQ on Redis, fraction of the ideal', value: num(l.batchFraction), target: { min: TARGETS.batchRedisFraction } },
    { figure: 'kill -9 of a worker: items lost', value: num(at(l, 'kill', 'lost')), target: { max: 0 } },
  ],
  'batch-postgres': (l) => [{ figure: 'BullMQ on PostgreSQL, fraction of the ideal', value: num(l.fraction), target: { min: TARGETS.batchPostgresFraction } }],
  survival: (l) => [
    { figure: 'lossy recall, quantity questions', value: num(at(l, 'quantities', 'overall', 'lossyRecall')), target: { min: TARGETS.survivalLossyRecall } },
    { figure: 'lossy precision, quantity questions', value: num(at(l, 'quantities', 'overall', 'lossyPrecision')), target: { min: TARGETS.survivalLossyPrecision } },
    { figure: 'lossy recall, condition questions', value: num(at(l, 'conditions', 'overall', 'lossyRecall')), target: { min: TARGETS.survivalConditionLossyRecall } },
    { figure: 'false alarms on faithful intermediates (both kinds)', value: num(at(l, 'overall', 'falseAlarmRate')), target: { max: TARGETS.survivalFalseAlarms } },
  ],
  collect: (l) => [{ figure: `collect: spans lost of ${String(l.sent ?? '?')} sent (${String(l.exporters ?? '?')} exporters × ${String(l.rate ?? '?')}/s)`, value: num(l.lost), target: { max: TARGETS.collectLostSpans } }],
  inspect: (l) => [{ figure: `inspect median ms, ${String(l.words ?? '?')}-word source`, value: num(l.median_ms), target: { max: TARGETS.inspectMedianMs }, unit: 'ms' }],
};

/** The JSON lines of a bench's output (each a `{"bench": …}` object on a line of its own). */
export function benchLines(output: string): BenchLine[] {
  const lines: BenchLine[] = [];
  for (const raw of output.split('\n')) {
    const text = raw.trim();
    if (!text.startsWith('{"bench"')) continue;
    try {
      const value = JSON.parse(text) as unknown;
      if (value && typeof value === 'object' && typeof (value as BenchLine).bench === 'string') lines.push(value as BenchLine);
    } catch {
      // A line that only looks like one is not a figure.
    }
  }
  return lines;
}

export function headlines(lines: readonly BenchLine[]): Headline[] {
  return lines.flatMap((line) => (EXTRACTORS[line.bench]?.(line) ?? []).map((h) => ({ bench: line.bench, ...h })));
}

/** A figure the bench did not produce is not met. */
export function met(h: Headline): boolean | null {
  if (h.value === null) return null;
  return 'max' in h.target ? h.value <= h.target.max : h.value >= h.target.min;
}

export function targetText(h: Headline): string {
  return 'max' in h.target ? `≤ ${h.target.max}` : `≥ ${h.target.min}`;
}
