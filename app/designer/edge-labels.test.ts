import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { layoutChain } from '../../src/chain/layout.ts';
import { parseChain } from '../../src/chain/parse.ts';
import { stepRegistry } from '../../src/steps/index.ts';
import { buildEdges, buildNodes, type FlowNode } from '../canvas/flow-elements.ts';
import { bezierPoint, placeEdgeLabels } from './edge-labels.ts';

const demoDir = new URL('../../public/demo/', import.meta.url);
const demos = readdirSync(demoDir).filter((f) => f.endsWith('.chain.json')).map((file) => {
  const parsed = parseChain(JSON.parse(readFileSync(new URL(file, demoDir), 'utf8')), stepRegistry);
  if (!parsed.ok) throw new Error(file);
  return { file, chain: parsed.chain };
});

const SIZE = { width: 212, height: 120 };

describe('placeEdgeLabels', () => {
  it.each(demos)('$file after auto layout: no label sits on a card', ({ chain }) => {
    const layout = layoutChain(chain, { nodeWidth: SIZE.width, nodeHeight: SIZE.height }, stepRegistry);
    const laid = { ...chain, inputs: chain.inputs.map((i) => ({ ...i, position: layout.inputs.get(i.name) ?? i.position })), steps: chain.steps.map((s) => ({ ...s, position: layout.steps.get(s.id) ?? s.position })) };
    const nodes = buildNodes(laid, stepRegistry, {
      selectedStepId: null, selectedInput: null, problemCounts: new Map(), lintCounts: new Map(), runInfo: new Map(), measured: {}, dragging: {}, highlight: null,
    }).map((n): FlowNode => ({ ...n, measured: n.type === 'step' ? SIZE : { width: 180, height: 48 } }));
    const box = new Map(nodes.map((n) => [n.id, { ...n.position, w: n.measured!.width!, h: n.measured!.height! }]));
    for (const edge of placeEdgeLabels(buildEdges(laid, stepRegistry, [], null), nodes)) {
      const s = box.get(edge.source)!;
      const t = box.get(edge.target)!;
      const at = edge.data?.labelAt ?? bezierPoint({ x: s.x + s.w, y: s.y + s.h / 2 }, { x: t.x, y: t.y + t.h / 2 }, 0.5);
      for (const [id, b] of box) {
        const on = at.x > b.x && at.x < b.x + b.w && at.y > b.y && at.y < b.y + b.h;
        expect(on, `label of ${edge.id} on ${id}`).toBe(false);
      }
    }
  });

  it('leaves an edge with a clear midpoint as it was', () => {
    const nodes = [
      { id: 'a', type: 'step', position: { x: 0, y: 0 }, measured: SIZE, data: {} },
      { id: 'b', type: 'step', position: { x: 400, y: 0 }, measured: SIZE, data: {} },
    ] as unknown as FlowNode[];
    const edge = { id: 'e', source: 'a', target: 'b', label: 'x', data: { kind: 'data' as const, source: 'a', target: 'b', binding: 'x' } };
    expect(placeEdgeLabels([edge], nodes)[0]).toBe(edge);
  });
});
