import { describe, expect, it } from 'vitest';
import { estimateCompounding } from '../../src/chain/index.ts';
import type { Chain } from '../../src/chain/index.ts';
import type { StepMetrics } from '../../src/inspect/index.ts';
import { twoStepChain } from '../../src/testing/index.ts';
import type { RunInspection } from '../../src/inspect/index.ts';
import { defaultRates, lossCounts } from './compounding-rates.ts';

const metrics = (stepId: string, validationFailureRate: number, attempts: number) => ({ stepId, validationFailureRate, failureRate: 0, attempts }) as StepMetrics;

describe('compounding rates', () => {
  it('assumes 5% per model step, uses observed validation failures where runs exist, and credits gates', () => {
    const base = twoStepChain();
    const chain: Chain = {
      ...base,
      steps: [...base.steps, { id: 'check', kind: 'gate', name: 'Check', position: { x: 0, y: 200 }, config: { bindings: { value: 'steps.extract' }, check: { type: 'jsonSchema', schema: {} } } }],
    };
    const rows = defaultRates(chain, new Map([['answer', metrics('answer', 0.2, 10)]]));
    expect(rows.map((r) => r.stepId)).toEqual(['extract', 'answer']);
    const [extract, answer] = rows;
    expect(extract).toMatchObject({ errorRate: 0.05, errorSource: 'assumed', catchRate: 0.8, retrySuccess: 0.95 });
    expect(extract?.checkedBy).toEqual(['JSON Schema', 'gate "Check"']);
    expect(answer).toMatchObject({ errorRate: 0.2, errorSource: 'observed', attempts: 10, catchRate: 0.3, retrySuccess: 0.95 });
    expect(estimateCompounding(rows).explanation).toMatch(/^unchecked: 0\.95 × 0\.8 = 0\.76; with gates and one retry: /);
  });
});

describe('measured rates from stored runs', () => {
  const inspection = (runId: string, boundaries: { producer: string; lossy: boolean }[]) =>
    ({ runId, chainName: 'c', status: 'succeeded', boundaries: boundaries.map((b, i) => ({ ...b, boundaryId: `${runId}:${i}`, consumer: 'answer' })) }) as unknown as RunInspection;

  it('counts a run once per producing step, lossy when any of its handoffs was', () => {
    const counts = lossCounts([
      inspection('r1', [{ producer: 'extract', lossy: true }, { producer: 'extract', lossy: false }]),
      inspection('r2', [{ producer: 'extract', lossy: false }]),
      inspection('r3', []),
    ]);
    expect(counts.get('extract')).toEqual({ runs: 2, lossy: 1 });
    expect(counts.has('answer')).toBe(false);
  });

  it('a lossy boundary brings end-to-end success below 100% even with no validation failure', () => {
    const chain = twoStepChain();
    const observed = new Map([
      ['extract', { stepId: 'extract', validationFailureRate: 0, failureRate: 0, attempts: 3 } as StepMetrics],
      ['answer', { stepId: 'answer', validationFailureRate: 0, failureRate: 0, attempts: 3 } as StepMetrics],
    ]);
    const clean = estimateCompounding(defaultRates(chain, observed));
    expect(clean.gated).toBe(1);
    const rows = defaultRates(chain, observed, undefined, new Map([['extract', { runs: 3, lossy: 3 }]]));
    expect(rows[0]).toMatchObject({ uncaughtRate: 1, handoffs: { runs: 3, lossy: 3 } });
    const estimate = estimateCompounding(rows);
    expect(estimate.gated).toBe(0);
    expect(estimate.ungated).toBe(0);
  });

  it('uses a step failure rate when it is above the validation failure rate', () => {
    const rows = defaultRates(twoStepChain(), new Map([['answer', { stepId: 'answer', validationFailureRate: 0.1, failureRate: 0.25, attempts: 8 } as StepMetrics]]));
    expect(rows[1]).toMatchObject({ errorRate: 0.25, failureRate: 0.25, errorSource: 'observed' });
  });
});
