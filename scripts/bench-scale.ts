/**
 * Benchmark: does the work grow linearly with the size of what a file or a model hands us?
 * Each case runs at a small and a large size and prints the time and the growth ratio
 * (large ÷ small) next to the ratio of the sizes. It asserts nothing: the targets from
 * issue #11 are printed beside the figures.
 *
 *   npx tsx scripts/bench-scale.ts [--quick]
 *
 * - run: a chain of N model steps in sequence on the demo model (1,000 and 5,000 steps).
 * - inspect: `inspectRun` over those runs' traces (every boundary's fact survival).
 * - facts: fact extraction over text with no newlines (1 MB and 5 MB).
 * - tokens: counting one letter repeated (40,000 and 200,000 characters).
 */
import { runChain } from '../src/engine/run.ts';
import { inspectRun } from '../src/inspect/boundary.ts';
import { extractFacts } from '../src/inspect/facts.ts';
import { createDemoProvider } from '../src/providers/demo-model.ts';
import { demoProfile, runModelSettings } from '../src/providers/profiles.ts';
import { loadTokenCounter } from '../src/providers/tokenizer.ts';
import { createMemoryRunRepository } from '../src/trace/repository.ts';
import { oneLine, sequentialChain } from '../src/testing/battery/b11-bounds.ts';
import type { RunMeta } from '../src/trace/events.ts';
import type { TraceEvent } from '../src/trace/events.ts';

const quick = process.argv.includes('--quick');

const DOCUMENT = 'A member may appeal within 180 calendar days. The plan pays up to $1,500 a year. An urgent appeal is decided within 48 hours.';

async function timed<T>(work: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await work();
  return { ms: performance.now() - start, value };
}

interface Row {
  name: string;
  small: string;
  large: string;
  smallMs: number;
  largeMs: number;
  sizeRatio: number;
  target: string;
  met: boolean;
}

async function main(): Promise<void> {
  const rows: Row[] = [];
  const countTokens = await loadTokenCounter();
  const [nSmall, nLarge] = quick ? [200, 1000] : [1000, 5000];

  const runs = new Map<number, { meta: RunMeta; events: TraceEvent[] }>();
  const runMs = new Map<number, number>();
  for (const n of [nSmall, nLarge]) {
    const repo = createMemoryRunRepository();
    const { ms, value: meta } = await timed(() =>
      runChain({ chain: sequentialChain(n), inputs: { document: DOCUMENT }, provider: createDemoProvider(), model: runModelSettings(demoProfile), repo, countTokens }),
    );
    if (meta.status !== 'succeeded') throw new Error(`the ${n}-step run ended ${meta.status}`);
    runs.set(n, { meta, events: await repo.getEvents(meta.id) });
    runMs.set(n, ms);
  }
  const ratioTarget = 6;
  const push = (name: string, small: string, large: string, smallMs: number, largeMs: number, sizeRatio: number, target: string, met: boolean) =>
    rows.push({ name, small, large, smallMs, largeMs, sizeRatio, target, met });
  const runRatio = (runMs.get(nLarge) ?? 0) / (runMs.get(nSmall) ?? 1);
  push('run (steps)', `${nSmall}`, `${nLarge}`, runMs.get(nSmall) ?? 0, runMs.get(nLarge) ?? 0, nLarge / nSmall, `ratio ≤ ${ratioTarget}×`, runRatio <= ratioTarget);

  const inspectMs = new Map<number, number>();
  for (const n of [nSmall, nLarge]) {
    const run = runs.get(n);
    if (!run) continue;
    const { ms, value } = await timed(() => inspectRun(run.meta, run.events));
    if (value.boundaries.length < n) throw new Error(`inspect saw ${value.boundaries.length} boundaries in a ${n}-step run`);
    inspectMs.set(n, ms);
  }
  const inspectRatio = (inspectMs.get(nLarge) ?? 0) / (inspectMs.get(nSmall) ?? 1);
  push('inspect (steps)', `${nSmall}`, `${nLarge}`, inspectMs.get(nSmall) ?? 0, inspectMs.get(nLarge) ?? 0, nLarge / nSmall, `ratio ≤ ${ratioTarget}×`, inspectRatio <= ratioTarget);

  const line = oneLine;
  const [fSmall, fLarge] = quick ? [200_000, 1_000_000] : [1_000_000, 5_000_000];
  const factsSmall = await timed(() => extractFacts(line(fSmall)));
  const factsLarge = await timed(() => extractFacts(line(fLarge)));
  push('facts, no newlines (bytes)', `${fSmall / 1e6} MB`, `${fLarge / 1e6} MB`, factsSmall.ms, factsLarge.ms, fLarge / fSmall, 'large < 2 s', factsLarge.ms < 2000);

  const [tSmall, tLarge] = [40_000, 200_000];
  const tokSmall = await timed(() => countTokens('a'.repeat(tSmall)));
  const tokLarge = await timed(() => countTokens('a'.repeat(tLarge)));
  push('tokens, one letter (chars)', `${tSmall}`, `${tLarge}`, tokSmall.ms, tokLarge.ms, tLarge / tSmall, 'large < 1 s', tokLarge.ms < 1000);

  const fmt = (ms: number) => (ms < 10 ? ms.toFixed(1) : Math.round(ms).toString());
  console.log('\nScale bench: time at two sizes and how it grows (linear growth = the size ratio).\n');
  console.log('| case | small | large | small ms | large ms | growth | size ratio | target | |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(`| ${r.name} | ${r.small} | ${r.large} | ${fmt(r.smallMs)} | ${fmt(r.largeMs)} | ${(r.largeMs / Math.max(r.smallMs, 0.01)).toFixed(2)}× | ${r.sizeRatio}× | ${r.target} | ${r.met ? 'ok' : 'MISSED'} |`);
  }
  console.log(JSON.stringify({ bench: 'scale', quick, rows: rows.map((r) => ({ case: r.name, smallMs: Math.round(r.smallMs), largeMs: Math.round(r.largeMs), growth: Number((r.largeMs / Math.max(r.smallMs, 0.01)).toFixed(2)), met: r.met })) }));
}

await main();
