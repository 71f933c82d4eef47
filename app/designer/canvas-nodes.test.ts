import { describe, expect, it } from 'vitest';
import { buildNodes, INPUT_PREFIX, type FlowNode } from '../canvas/flow-elements.ts';
import { twoStepChain } from '../../src/testing/index.ts';
import { makeBenchChain } from './bench-fixture.ts';
import { canvasRegistry } from './canvas-registry.ts';
import { estimateStepSize, keepIdentity, nextSelection, presize, withDrag, withMeasured } from './canvas-nodes.ts';

const options = { selectedStepId: null, selectedInput: null, problemCounts: new Map(), lintCounts: new Map(), runInfo: new Map(), measured: {}, dragging: {}, highlight: null };
const lines = () => 6;

describe('canvas nodes', () => {
  it('estimates a card exactly as Chromium lays it out (212×176 for a six-line model card; badges add 2 px)', () => {
    const step = makeBenchChain(3).steps[1]!;
    expect(estimateStepSize(step, 6)).toEqual({ width: 212, height: 176 });
    expect(estimateStepSize(step, 6, true)).toEqual({ width: 212, height: 178 });
    expect(estimateStepSize(step, 2, true)).toEqual({ width: 212, height: 112 });
  });

  it('pre-sizes steps with shared size objects, keeps unchanged nodes, and touches only measured or dragged ones', () => {
    const chain = makeBenchChain(50);
    const a = presize(buildNodes(chain, canvasRegistry, options), lines);
    const b = presize(buildNodes(chain, canvasRegistry, options), lines);
    expect(a[0]?.measured).toBe(b[0]?.measured);
    expect(a[0]?.handles).toHaveLength(2);
    expect(keepIdentity(a, b)).toBe(a);
    const selected = presize(buildNodes(chain, canvasRegistry, { ...options, selectedStepId: 's3' }), lines);
    const kept = keepIdentity(a, selected);
    expect(kept.filter((n, i) => n !== a[i]).map((n) => n.id)).toEqual(['s3']);

    const measured = withMeasured(a, { s2: { width: 212, height: 190 } });
    expect(measured.filter((n, i) => n !== a[i]).map((n) => n.id)).toEqual(['s2']);
    expect(measured[2]?.handles).toBeUndefined();
    const dragged = withDrag(a, { s4: { x: 1, y: 2 } });
    expect(dragged.filter((n, i) => n !== a[i]).map((n) => [n.id, n.position])).toEqual([['s4', { x: 1, y: 2 }]]);
  });

  it('folds click, shift-click and box-select changes into the selection; an input is selected only alone', () => {
    const sel = (id: string, selected: boolean) => ({ type: 'select' as const, id, selected });
    expect(nextSelection([sel('a', true)], { steps: [], input: null }, INPUT_PREFIX)).toEqual({ steps: ['a'], input: null });
    expect(nextSelection([sel('b', true)], { steps: ['a'], input: null }, INPUT_PREFIX)).toEqual({ steps: ['a', 'b'], input: null });
    expect(nextSelection([sel('a', false), sel('b', true)], { steps: ['a'], input: null }, INPUT_PREFIX)).toEqual({ steps: ['b'], input: null });
    expect(nextSelection([sel(`${INPUT_PREFIX}doc`, true)], { steps: [], input: null }, INPUT_PREFIX)).toEqual({ steps: [], input: 'doc' });
    expect(nextSelection([sel(`${INPUT_PREFIX}doc`, true), sel('a', true)], { steps: [], input: null }, INPUT_PREFIX)).toEqual({ steps: ['a'], input: null });
    expect(nextSelection([{ type: 'dimensions', id: 'a' }], { steps: [], input: null }, INPUT_PREFIX)).toBeNull();
    const inputs = buildNodes(twoStepChain(), canvasRegistry, options).filter((n: FlowNode) => n.type === 'chainInput');
    expect(presize(inputs, lines)).toEqual(inputs);
  });
});
