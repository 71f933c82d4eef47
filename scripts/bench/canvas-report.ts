/** Figures from the harness's per-run JSON (bench-flow.mjs) and the table bench-canvas prints. */
export interface FlowRun {
  n: number;
  /** Which repeat of bench-canvas it came from (set by bench-canvas; the harness runs one per call). */
  rep?: number;
  error?: string;
  load: { readyMs: number };
  panzoom: { p95: number; p50: number; fps: number };
  drag: { inputToFrameP95: number; inputToFrameP50: number; samples: number } | null;
  heap: { usedMB: number };
  dom: { rfNodes: number; domNodes: number };
}

export const median = (xs: readonly number[]): number => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

/**
 * Time to ready, ours ÷ the bare page's, per repeat (the two ran minutes apart at most, in the same
 * repeat), in repeat order: a repeat where either run failed is left out. The bare page's own load
 * time moves by a third between repeats (516–1016 ms at 1,000 steps on one machine in one day),
 * so a ratio of medians taken over different repeats says more about which repeats were quick
 * than about the page.
 */
export function pairedReadyRatios(ours: readonly FlowRun[], bare: readonly FlowRun[], n: number): number[] {
  const ratios: number[] = [];
  for (const o of ours) {
    if (o.n !== n || o.error || o.rep === undefined) continue;
    const b = bare.find((r) => r.n === n && r.rep === o.rep && !r.error);
    if (b && b.load.readyMs > 0) ratios.push(o.load.readyMs / b.load.readyMs);
  }
  return ratios;
}

export interface Row {
  n: number;
  runs: number;
  readyMs: number;
  panP95: number;
  dragP95: number;
  heapMB: number;
  rfNodes: number;
}

export function summarise(runs: readonly FlowRun[], n: number): Row {
  const ok = runs.filter((r) => r.n === n && !r.error);
  return {
    n,
    runs: ok.length,
    readyMs: median(ok.map((r) => r.load.readyMs)),
    panP95: median(ok.map((r) => r.panzoom.p95)),
    dragP95: median(ok.map((r) => r.drag?.inputToFrameP95 ?? Number.NaN)),
    heapMB: median(ok.map((r) => r.heap.usedMB)),
    rfNodes: median(ok.map((r) => r.dom.rfNodes)),
  };
}

export function table(header: string[], rows: (string | number)[][]): string {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [line(cells[0] as string[]), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...cells.slice(1).map(line)].join('\n');
}

export const fmt = (x: number, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : 'n/a');
