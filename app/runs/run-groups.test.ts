import { describe, expect, it } from 'vitest';
import type { RunMeta } from '../../src/trace/index.ts';
import { evalIdOf, groupRuns } from './run-groups.ts';

const run = (id: string, startedAt: number, extra: Partial<RunMeta> = {}): RunMeta => ({
  id, traceVersion: 1, chainId: 'c', chainName: 'C', chainRevision: 'r', chain: {}, inputs: {}, provider: 'demo', model: 'm', status: 'succeeded', startedAt, ...extra,
});

describe('groupRuns', () => {
  it('keeps a person’s runs apart and puts eval runs under their batch, newest batch first', () => {
    const runs = [
      run('r-own-2', 90),
      run('x1', 80, { evalId: 'eval-b' }),
      run('x2', 70, { evalId: 'eval-b' }),
      run('r-own-1', 60),
      run('eval-mfz1k2-a1b2c3-0123456789', 50),
      run('y1', 40, { evalId: 'eval-a' }),
    ];
    const { own, batches } = groupRuns(runs);
    expect(own.map((r) => r.id)).toEqual(['r-own-2', 'r-own-1']);
    expect(batches.map((b) => [b.evalId, b.runs.map((r) => r.id), b.startedAt])).toEqual([
      ['eval-b', ['x1', 'x2'], 70],
      ['eval-mfz1k2-a1b2c3', ['eval-mfz1k2-a1b2c3-0123456789'], 50],
      ['eval-a', ['y1'], 40],
    ]);
  });

  it('reads the batch of a run stored before runs carried it from its id, and nothing else as one', () => {
    expect(evalIdOf(run('eval-mfz1k2-a1b2c3-0123456789', 1))).toBe('eval-mfz1k2-a1b2c3');
    expect(evalIdOf(run('run-eval-mfz1k2-a1b2c3-0123456789', 1))).toBeNull();
    expect(evalIdOf(run('eval-notes', 1))).toBeNull();
  });
});
