import { describe, expect, it } from 'vitest';
import { stepRegistry } from '../../src/steps/index.ts';
import { routedChain, twoStepChain } from '../../src/testing/index.ts';
import type { StepMetrics } from '../../src/inspect/index.ts';
import { buildEdges, buildNodes, inputNodeId, nodeMetrics, type NodeOptions } from './flow-elements.ts';

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

  it('puts an input where the person dragged it, and names every node for screen readers', () => {
    const base = twoStepChain();
    const chain = { ...base, inputs: base.inputs.map((i) => (i.name === 'question' ? { ...i, position: { x: 40, y: 500 } } : i)) };
    const nodes = buildNodes(chain, stepRegistry, { ...options, dragging: { [inputNodeId('document')]: { x: 7, y: 8 } } });
    const byId = new Map(nodes.map((n) => [n.id, n]));
    expect(byId.get(inputNodeId('question'))?.position).toEqual({ x: 40, y: 500 });
    expect(byId.get(inputNodeId('document'))?.position).toEqual({ x: 7, y: 8 });
    expect(byId.get(inputNodeId('document'))?.draggable).not.toBe(false);
    expect(byId.get('extract')?.ariaLabel).toMatch(/^Model step extract/);
    expect(byId.get(inputNodeId('question'))?.ariaLabel).toMatch(/^Input question/);
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

  it('says so in words and colour on an edge the replay flags as likely lossy', () => {
    const edges = buildEdges(twoStepChain(), stepRegistry, [], null, new Set(['data:extract->answer:facts']));
    const lossy = edges.find((e) => e.id === 'data:extract->answer:facts');
    expect(lossy?.className).toContain('edge-lossy');
    expect(lossy?.label).toBe('facts · likely lossy');
    expect(lossy?.data?.binding).toBe('facts');
    expect(edges.find((e) => e.id === 'data:answer->final:value')?.className).not.toContain('edge-lossy');
  });

  it('badges a step with the rates that are not zero and its p95, and leaves steps without model calls alone', () => {
    const m: StepMetrics = {
      stepId: 'extract', runs: 3, attempts: 4, validationFailureRate: 0.25, retryRate: 1 / 3, abstainRate: 0, escalateRate: 0, failureRate: 0,
      latencyP50: 800, latencyP95: 1200, inputTokens: 10, outputTokens: 5, costUsd: 0,
    };
    expect(nodeMetrics(m)?.label).toBe('invalid 25% · retry 33% · p95 1.2 s');
    expect(nodeMetrics({ ...m, validationFailureRate: 0, retryRate: 0 })?.label).toBe('p95 1.2 s');
    expect(nodeMetrics({ ...m, attempts: 0 })).toBeUndefined();
    const nodes = buildNodes(twoStepChain(), stepRegistry, { ...options, metrics: new Map([['extract', m]]) });
    expect(nodes.find((n) => n.id === 'extract')?.data).toMatchObject({ metrics: { label: 'invalid 25% · retry 33% · p95 1.2 s' } });
  });
});
