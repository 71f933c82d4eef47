import { describe, expect, it } from 'vitest';
import { pairedReadyRatios, type FlowRun } from './canvas-report.ts';

const run = (n: number, rep: number, readyMs: number, error?: string): FlowRun => ({
  n, rep, ...(error ? { error } : {}), load: { readyMs }, panzoom: { p95: 16.7, p50: 16.7, fps: 60 }, drag: null, heap: { usedMB: 8 }, dom: { rfNodes: 10, domNodes: 100 },
});

describe('pairedReadyRatios', () => {
  it('divides each repeat\'s ready time by the bare page\'s in the same repeat, for the asked size only', () => {
    const ours = [run(1000, 0, 800), run(3000, 0, 900), run(1000, 1, 760), run(3000, 1, 880), run(1000, 2, 810)];
    const bare = [run(1000, 0, 640), run(3000, 0, 780), run(1000, 1, 1000), run(3000, 1, 800), run(1000, 2, 540)];
    expect(pairedReadyRatios(ours, bare, 1000)).toEqual([800 / 640, 760 / 1000, 810 / 540]);
    expect(pairedReadyRatios(ours, bare, 3000)).toEqual([900 / 780, 880 / 800]);
  });

  it('leaves out a repeat where either run failed or the bare page was not run', () => {
    const ours = [run(1000, 0, 800), run(1000, 1, 760, 'timeout'), run(1000, 2, 810), run(1000, 3, 790)];
    const bare = [run(1000, 0, 640), run(1000, 1, 700), run(1000, 2, 600, 'crashed')];
    expect(pairedReadyRatios(ours, bare, 1000)).toEqual([800 / 640]);
  });
});
