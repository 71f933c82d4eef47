import { describe, expect, it } from 'vitest';
import type { Chain } from '../../src/chain/index.ts';
import type { TraceEvent } from '../../src/trace/index.ts';
import { assemblyProgress } from '../../src/steps/assembly-progress.ts';
import { createAssemblyFoldCache } from './assembly-fold-cache.ts';

const chain: Chain = {
  format: 'seamscope.chain', version: 1, id: 'c', name: 'c',
  inputs: [{ name: 'doc', schema: { type: 'string' }, trust: 'trusted', required: true }],
  steps: [
    { id: 'split', kind: 'split', name: '', position: { x: 0, y: 0 }, config: { bindings: { units: 'inputs.doc' } } },
    { id: 'rewrite', kind: 'map', name: '', position: { x: 0, y: 0 }, config: { bindings: { items: 'steps.split.groups' }, itemName: 'group', unitIdField: 'group_key', prompt: '{group}', outputSchema: { type: 'object' } } },
    { id: 'assemble', kind: 'assemble', name: '', position: { x: 0, y: 0 }, config: { bindings: { groups: 'steps.split', results: 'steps.rewrite' } } },
  ],
};
const groups = [{ group_key: 'g1', unit_ids: ['1.1'] }, { group_key: 'g2', unit_ids: ['2.1'] }];
const splitDone: TraceEvent = { type: 'step.finished', at: 1, stepId: 'split', status: 'succeeded', output: { groups }, latencyMs: 0 };
const unit = (g: (typeof groups)[number]): TraceEvent => ({ type: 'step.unit', at: 2, stepId: 'rewrite', unitId: g.group_key, index: 0, status: 'ok', output: { clauses: g.unit_ids.map((id) => ({ id, rewrite: `R${id}` })) } });

describe('the replay folds a growing trace once per event', () => {
  it('gives what a fold of the whole trace gives, as the list grows and when it is replaced', () => {
    const progressOf = createAssemblyFoldCache();
    const trace = [splitDone, unit(groups[1]!), unit(groups[0]!)];
    for (let n = 0; n <= trace.length; n++) {
      expect(progressOf(chain, trace.slice(0, n))).toEqual(assemblyProgress(chain, trace.slice(0, n)).find((p) => p.total > 0) ?? null);
    }
    // Another trace (a run opened after the live one) is folded from its start.
    const other = [splitDone, unit(groups[0]!)];
    expect(progressOf(chain, other)?.contiguous).toBe(1);
    expect(progressOf(chain, [])).toBeNull();
  });
});
