import { describe, expect, it } from 'vitest';
import { stepRegistry } from '../../src/steps/index.ts';
import { routedChain, twoStepChain } from '../../src/testing/chain-fixtures.ts';
import { buildEdges, buildNodes, inputNodeId, type NodeOptions } from './flow-elements.ts';

const options: NodeOptions = {
  selectedStepId: 'answer', selectedInput: null, problemCounts: new Map([['extract', 2]]), lintCounts: new Map(), runInfo: new Map(),
  measured: {}, dragging: { final: { x: 1, y: 2 } }, highlight: { producer: 'extract', consumer: 'answer', edgeId: 'data:extract->answer:facts', sources: ['document'] },
};

describe('flow elements', () => {
  it('makes a node per step and per input, with selection, problems, drag positions and highlight roles', () => {
    const nodes = buildNodes(twoStepChain(), stepRegistry, options);
    expect(nodes.map((n) => n.id)).toEqual([inputNodeId('document'), inputNodeId('question'), 'extract', 'answer', 'final']);
    const byId = new Map(nodes.map((n) => [n.id, n]));
    expect(byId.get('answer')?.selected).toBe(true);
    expect(byId.get('extract')?.data).toMatchObject({ problems: 2, role: 'producer' });
    expect(byId.get('answer')?.data).toMatchObject({ role: 'consumer' });
    expect(byId.get('final')?.position).toEqual({ x: 1, y: 2 });
    expect(byId.get(inputNodeId('document'))?.data).toMatchObject({ role: 'source' });
    // Inputs sit left of every step.
    expect(byId.get(inputNodeId('document'))?.position.x).toBeLessThan(0);
  });

  it('draws input, data and branch edges, lighting the current boundary', () => {
    const edges = buildEdges(twoStepChain(), stepRegistry, [], options.highlight);
    expect(edges.map((e) => [e.source, e.target, e.label])).toEqual([
      [inputNodeId('document'), 'extract', 'document'],
      [inputNodeId('question'), 'answer', 'question'],
      ['extract', 'answer', 'facts'],
      ['answer', 'final', 'value'],
    ]);
    expect(edges.find((e) => e.id === 'data:extract->answer:facts')?.className).toContain('edge-lit');
    const routed = buildEdges(routedChain(), stepRegistry, [], null).filter((e) => e.data?.kind === 'branch');
    expect(routed.map((e) => e.target).sort()).toEqual(['billing_reply', 'tech_reply']);
    expect(routed.every((e) => e.className?.includes('edge-branch'))).toBe(true);
  });
});
