import { describe, expect, it } from 'vitest';
import { estimateCompounding } from '../../src/chain/compounding.ts';
import type { Chain } from '../../src/chain/schema.ts';
import type { StepMetrics } from '../../src/inspect/metrics.ts';
import { twoStepChain } from '../../src/testing/chain-fixtures.ts';
import { defaultRates } from './compounding-rates.ts';

const metrics = (stepId: string, validationFailureRate: number, attempts: number) => ({ stepId, validationFailureRate, attempts }) as StepMetrics;

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
