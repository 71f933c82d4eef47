import { describe, expect, it } from 'vitest';
import { buildControls } from '../../src/eval/index.ts';
import { stepRegistry } from '../../src/steps/index.ts';
import { twoStepChain } from '../../src/testing/index.ts';
import { variantLabels } from './variant-labels.ts';

describe('variantLabels', () => {
  it('names each variant by its chain’s name, a named baseline under the chain it stands for', () => {
    const chain = { ...twoStepChain(), id: 'c-1', name: 'Two steps' };
    const plan = buildControls(chain, stepRegistry, { name: chain.id });
    const labels = variantLabels([{ name: chain.id, kind: 'chain', chain }, ...plan.variants]);
    expect(labels['c-1']).toBe('Two steps');
    expect(labels['c-1:baseline']).toBe('Two steps (generated single prompt)');
    for (const v of plan.variants) expect(labels[v.name]).toMatch(/^Two steps \(/);
    const single = { ...(plan.variants[0]?.chain ?? chain), id: 'single', name: 'My single prompt' };
    const named = variantLabels([{ name: chain.id, kind: 'chain', chain }, { name: 'c-1:baseline', kind: 'baseline', chain: single }]);
    expect(named['c-1:baseline']).toBe('Two steps (baseline: My single prompt)');
  });
});
