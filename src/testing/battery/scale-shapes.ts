import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Chain } from '../../chain/schema.ts';
import { main } from '../../cli/main.ts';
import { fanOutChain, gateLineChain, mapChain, mapItems, sequentialChain } from './b11-bounds.ts';

/**
 * The chain shapes whose run time must grow linearly with their size (#27), each run the way a
 * person runs a file: `seamscope run` in this process (main(), so the CLI's own per-event work,
 * its progress lines and the trace file, is inside the figure; the bench of #11 ran the engine
 * alone and missed a fold over the whole trace per event in the CLI).
 */
export interface ScaleShape {
  name: string;
  /** What n counts. */
  unit: string;
  build(n: number): { chain: Chain; inputs: Record<string, unknown> };
}

const DOCUMENT = 'A member may appeal within 180 calendar days. The plan pays up to $1,500 a year. An urgent appeal is decided within 48 hours.';

export const SCALE_SHAPES: readonly ScaleShape[] = [
  { name: 'model line', unit: 'steps', build: (n) => ({ chain: sequentialChain(n), inputs: { document: DOCUMENT } }) },
  { name: 'gate line', unit: 'steps', build: (n) => ({ chain: gateLineChain(n), inputs: { document: DOCUMENT } }) },
  { name: 'fan-out', unit: 'steps', build: (n) => ({ chain: fanOutChain(n), inputs: { document: DOCUMENT } }) },
  { name: 'map', unit: 'units', build: (n) => ({ chain: mapChain(), inputs: { items: mapItems(n) } }) },
];

/** The shape at size n as a chain file and an inputs file in `dir`, as a person would hand them to `seamscope run`. */
async function writeShape(shape: ScaleShape, n: number, dir: string): Promise<{ chainPath: string; inputsPath: string }> {
  const { chain, inputs } = shape.build(n);
  const chainPath = join(dir, 'scale.chain.json');
  const inputsPath = join(dir, 'inputs.json');
  await writeFile(chainPath, JSON.stringify(chain));
  await writeFile(inputsPath, JSON.stringify(inputs));
  return { chainPath, inputsPath };
}

/**
 * `seamscope run` of a shape at size n on the demo model, in this process; resolves with the
 * wall time, the exit status and the peak heap the run added over the heap at its start.
 *
 * By default the heap is sampled every 20 ms as it is, garbage and all: that peak says when the
 * collector ran more than what the run keeps (the same 5,000-step run read 37 and 57 MB on two
 * days). With `liveHeap` (needs --expose-gc) every sample comes after a full collection, so it
 * is what the run holds at that moment; the collections slow the run, so its time is not one
 * to compare.
 */
export async function runShapeThroughCli(shape: ScaleShape, n: number, opts: { liveHeap?: boolean } = {}): Promise<{ ms: number; status: number; peakHeapMb: number }> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (opts.liveHeap && !gc) throw new Error('the live heap needs node --expose-gc');
  const dir = await mkdtemp(join(tmpdir(), 'seamscope-scale-'));
  try {
    const { chainPath, inputsPath } = await writeShape(shape, n, dir);
    const lines = { out: 0, err: 0 };
    const io = { out: () => void lines.out++, err: () => void lines.err++, env: {} };
    gc?.();
    const base = process.memoryUsage().heapUsed;
    let peak = base;
    const sample = () => {
      if (opts.liveHeap) gc?.();
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    };
    const sampler = setInterval(sample, opts.liveHeap ? 50 : 20);
    const started = performance.now();
    const status = await main(['run', chainPath, '--inputs', inputsPath, '--out', join(dir, 'scale.run.json')], io).finally(() => clearInterval(sampler));
    const ms = performance.now() - started;
    if (!opts.liveHeap) sample();
    return { ms, status, peakHeapMb: (peak - base) / 2 ** 20 };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The built CLI (`npm run build:cli`), as a person runs it. */
export const BUILT_CLI = fileURLToPath(new URL('../../../dist-cli/seamscope.mjs', import.meta.url));

/**
 * `seamscope run` of a shape as its own process, the built CLI, wall time from spawn to exit
 * (Node's start and the bundle's load included, as a person's command pays them). Null when
 * the CLI is not built.
 */
export async function runShapeAsProcess(shape: ScaleShape, n: number): Promise<{ ms: number; status: number } | null> {
  if (!existsSync(BUILT_CLI)) return null;
  const dir = await mkdtemp(join(tmpdir(), 'seamscope-scale-'));
  try {
    const { chainPath, inputsPath } = await writeShape(shape, n, dir);
    const started = performance.now();
    const child = spawnSync(process.execPath, [BUILT_CLI, 'run', chainPath, '--inputs', inputsPath, '--out', join(dir, 'scale.run.json')], { stdio: 'ignore', maxBuffer: 1 << 30 });
    return { ms: performance.now() - started, status: child.status ?? 1 };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
