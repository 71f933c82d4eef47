import { describe, expect, it } from 'vitest';
import type { Chain } from '../chain/schema.ts';
import type { TraceEvent } from '../trace/events.ts';
import { assembleGroups, okOutputsOf } from './assemble-core.ts';
import { assemblyProgress, createAssemblyFold, createAssemblyTracker, placeholderText, progressLine } from './assembly-progress.ts';
import { selectUnits } from './map.ts';

const fields = { itemsPath: 'clauses', idField: 'id', textField: 'rewrite' };
const groups = [
  { group_key: 'g-a', unit_ids: ['1.1', '1.2'], units: [{ id: '1.1', text: 'One.' }, { id: '1.2', text: 'Two.' }] },
  { group_key: 'g-b', unit_ids: ['2.1'], units: [{ id: '2.1', text: 'Three.' }] },
  { group_key: 'g-c', unit_ids: ['3.1', '3.2'], units: [{ id: '3.1', text: 'Four.' }, { id: '3.2', text: 'Five.' }] },
];
const rewrite = (ids: string[], tag = '') => ({ clauses: ids.map((id) => ({ id, rewrite: `R${id}${tag}` })) });

describe('assembleGroups', () => {
  it('merges the groups in unit order and pairs each rewrite with its source', () => {
    const results = new Map([['g-c', rewrite(['3.2', '3.1'])], ['g-a', rewrite(['1.1', '1.2'])], ['g-b', rewrite(['2.1'])]]);
    const a = assembleGroups(groups, results, new Map(), fields);
    expect(a.document).toBe('1.1 R1.1\n\n1.2 R1.2\n\n2.1 R2.1\n\n3.1 R3.1\n\n3.2 R3.2');
    expect(a.clauses[2]).toEqual({ id: '2.1', group_key: 'g-b', source: 'Three.', rewrite: 'R2.1' });
    expect([a.complete, a.assembled_count, a.missing_groups]).toEqual([true, 3, []]);
  });

  it('names a group that is missing or did not return exactly its ids, never a silent gap', () => {
    const results = new Map([['g-a', rewrite(['1.1'])], ['g-c', rewrite(['3.1', '3.2'])]]);
    const a = assembleGroups(groups, results, new Map(), fields);
    expect(a.document).toBe('[group 1 of 3 missing: clauses 1.1–1.2]\n\n[group 2 of 3 missing: clause 2.1]\n\n3.1 R3.1\n\n3.2 R3.2');
    expect([a.complete, a.missing_groups]).toEqual([false, ['g-a', 'g-b']]);
  });

  it('takes a replacement only when it returns exactly the group’s ids', () => {
    const results = new Map(groups.map((g) => [g.group_key, rewrite(g.unit_ids)]));
    const replacements = new Map([['g-b', rewrite(['2.1'], '*')], ['g-c', rewrite(['3.1'], '*')]]);
    const a = assembleGroups(groups, results, replacements, fields);
    expect(a.replaced_groups).toEqual(['g-b']);
    expect(a.document).toContain('2.1 R2.1*');
    expect(a.document).toContain('3.1 R3.1\n');
  });

  it('reads ok results from a map output and skips failed units', () => {
    const map = { results: [{ unit_id: 'g-a', status: 'ok', output: 1 }, { unit_id: 'g-b', status: 'error', output: null }] };
    expect([...okOutputsOf(map).keys()]).toEqual(['g-a']);
  });
});

describe('map only: the units a list names', () => {
  const items = groups;
  it('keeps the named units once each, in collection order, matching records on the unit id field', () => {
    const only = [{ group_key: 'g-c', note: 'x' }, { group_key: 'g-a' }, { group_key: 'g-c' }];
    expect((selectUnits(items, 'group_key', only) as { id: string }[]).map((u) => u.id)).toEqual(['g-a', 'g-c']);
    expect((selectUnits(items, 'group_key', ['g-b']) as { id: string }[]).map((u) => u.id)).toEqual(['g-b']);
    expect(selectUnits(items, 'group_key', [])).toEqual([]);
    expect(selectUnits(items, 'group_key', undefined)).toHaveLength(3);
  });
  it('selects nothing it cannot match: `only` without a unit id field, or not a list (the run says which)', () => {
    expect(selectUnits(items, '', ['1'])).toBeNull();
    expect(selectUnits(items, 'group_key', 'g-a')).toBeNull();
  });
});

const chain: Chain = {
  format: 'seamscope.chain', version: 1, id: 'c', name: 'c',
  inputs: [{ name: 'doc', schema: { type: 'string' }, trust: 'trusted', required: true }],
  steps: [
    { id: 'split', kind: 'split', name: '', position: { x: 0, y: 0 }, config: { bindings: { units: 'inputs.doc' } } },
    { id: 'rewrite', kind: 'map', name: '', position: { x: 0, y: 0 }, config: { bindings: { items: 'steps.split.groups' }, itemName: 'group', unitIdField: 'group_key', prompt: '{group}', outputSchema: { type: 'object' } } },
    { id: 'check', kind: 'gate', name: '', position: { x: 0, y: 0 }, config: { bindings: { value: 'steps.rewrite', expected: 'steps.split' }, check: { type: 'idSet', returnedPath: 'results[*].output.clauses[*].id', expectedPath: 'groups[*].unit_ids[*]' } } },
    { id: 'assemble', kind: 'assemble', name: '', position: { x: 0, y: 0 }, config: { bindings: { groups: 'steps.split', results: 'steps.check' } } },
    { id: 'again', kind: 'assemble', name: '', position: { x: 0, y: 0 }, config: { bindings: { groups: 'steps.split', results: 'steps.rewrite' } } },
  ],
};
const splitDone: TraceEvent = { type: 'step.finished', at: 1, stepId: 'split', status: 'succeeded', output: { groups }, latencyMs: 0 };
const unit = (g: (typeof groups)[number], status: 'ok' | 'error' = 'ok'): TraceEvent => ({ type: 'step.unit', at: 2, stepId: 'rewrite', unitId: g.group_key, index: 0, status, output: status === 'ok' ? rewrite(g.unit_ids) : null });

describe('partial delivery: the assembled document so far, from the trace', () => {
  it('shows the top contiguous part; a later group that finished first waits below a pending one', () => {
    const [p, ...rest] = assemblyProgress(chain, [splitDone, unit(groups[2]!), unit(groups[0]!)]);
    // Through the gate to the map; the second assembly of the same map is not folded twice.
    expect(rest).toEqual([]);
    expect(p).toMatchObject({ stepId: 'assemble', mapStepId: 'rewrite', total: 3, done: 2, contiguous: 1, text: '1.1 R1.1\n\n1.2 R1.2', units: { first: '1.1', last: '1.2' }, finished: false });
    expect(p?.groups.map((g) => g.status)).toEqual(['assembled', 'pending', 'done']);
    expect(placeholderText(p!.groups[1]!, 3)).toBe('group 2 of 3 pending: clause 2.1');
    expect(progressLine(p!)).toBe('assembled 1/3 groups (units 1.1–1.2)');
  });

  it('marks a failed unit as failed and nothing before the split as anything', () => {
    expect(assemblyProgress(chain, [])).toEqual([]);
    const [p] = assemblyProgress(chain, [splitDone, unit(groups[0]!, 'error')]);
    expect(p?.groups.map((g) => g.status)).toEqual(['failed', 'pending', 'pending']);
    expect(p?.units).toBeNull();
  });

  it('prints a progress line each time the top part grows, and only then', () => {
    const track = createAssemblyTracker(chain);
    const lines = [splitDone, unit(groups[1]!), unit(groups[0]!), unit(groups[2]!)].flatMap(track);
    expect(lines).toEqual(['assembled 2/3 groups (units 1.1–2.1) [assemble]', 'assembled 3/3 groups (units 1.1–3.2) [assemble]']);
  });

  it('folds event by event to what the whole trace gives, and keeps only the events the assembly reads', () => {
    const unrelated: TraceEvent = { type: 'step.finished', at: 3, stepId: 'elsewhere', status: 'succeeded', output: { groups: [] }, latencyMs: 0 };
    const trace = [splitDone, unrelated, unit(groups[1]!), unit(groups[0]!, 'error'), unit(groups[2]!), unit(groups[0]!)];
    const fold = createAssemblyFold(chain);
    const kept = trace.map((e, i) => {
      const changed = fold.add(e);
      expect(fold.progress()).toEqual(assemblyProgress(chain, trace.slice(0, i + 1)));
      return changed;
    });
    expect(kept).toEqual([true, false, true, true, true, true]);
  });
});
