import type { Edge, Node } from '@xyflow/react';
import { chainEdges } from '../../src/chain/graph.ts';
import { parseRef } from '../../src/chain/refs.ts';
import type { Chain, ChainInput, StepDef } from '../../src/chain/schema.ts';
import type { StepRegistry } from '../../src/steps/registry.ts';

/**
 * Chain → React Flow nodes and edges. The chain is the only source of truth; these arrays
 * are derived on every change (cheap at chain sizes a person draws) and never stored.
 */

export type NodeRunStatus = 'running' | 'succeeded' | 'failed' | 'skipped' | 'abstained' | 'escalated' | 'pending';

export interface StepRunInfo {
  status: NodeRunStatus;
  failure?: string;
  endpointError?: string;
}

export type StepNodeData = {
  step: StepDef;
  problems: number;
  /** Design-lint errors and warnings on this step. */
  warnings: number;
  run?: StepRunInfo;
  role?: 'producer' | 'consumer';
};
export type InputNodeData = { input: ChainInput; role?: 'source' };
export type StepFlowNode = Node<StepNodeData, 'step'>;
export type InputFlowNode = Node<InputNodeData, 'chainInput'>;
export type FlowNode = StepFlowNode | InputFlowNode;

export type FlowEdgeData = { kind: 'data' | 'input' | 'branch'; source: string; target: string; binding: string };
export type FlowEdge = Edge<FlowEdgeData>;

export const INPUT_PREFIX = 'input:';
export const inputNodeId = (name: string) => `${INPUT_PREFIX}${name}`;

export interface Highlight {
  producer: string;
  consumer: string;
  edgeId: string;
  sources: readonly string[];
}

export interface NodeOptions {
  selectedStepId: string | null;
  selectedInput: string | null;
  problemCounts: ReadonlyMap<string, number>;
  lintCounts: ReadonlyMap<string, number>;
  runInfo: ReadonlyMap<string, StepRunInfo>;
  measured: Readonly<Record<string, { width: number; height: number }>>;
  dragging: Readonly<Record<string, { x: number; y: number }>>;
  highlight: Highlight | null;
}

function bindingsOf(registry: StepRegistry, step: StepDef): Record<string, string> {
  const def = registry.get(step.kind);
  const parsed = def?.config.safeParse(step.config);
  return def && parsed?.success ? def.bindings(parsed.data) : {};
}

/** Inputs sit in a column left of the steps, each near the steps that read it. */
function inputPositions(chain: Chain, registry: StepRegistry): Map<string, { x: number; y: number }> {
  const xs = chain.steps.map((s) => s.position.x);
  const minX = xs.length ? Math.min(...xs) : 0;
  const minY = chain.steps.length ? Math.min(...chain.steps.map((s) => s.position.y)) : 0;
  const readers = new Map<string, number[]>();
  for (const step of chain.steps) {
    for (const ref of Object.values(bindingsOf(registry, step))) {
      const parsed = safeParseRef(ref);
      if (parsed?.root === 'inputs') readers.set(parsed.name, [...(readers.get(parsed.name) ?? []), step.position.y]);
    }
  }
  const out = new Map<string, { x: number; y: number }>();
  let floor = -Infinity;
  for (const input of chain.inputs) {
    const ys = readers.get(input.name);
    const wanted = ys?.length ? ys.reduce((a, b) => a + b, 0) / ys.length + 20 : minY;
    const y = Math.max(wanted, floor);
    out.set(input.name, { x: minX - 250, y });
    floor = y + 64;
  }
  return out;
}

function safeParseRef(ref: string) {
  try {
    return parseRef(ref);
  } catch {
    return null;
  }
}

export function buildNodes(chain: Chain, registry: StepRegistry, o: NodeOptions): FlowNode[] {
  const positions = inputPositions(chain, registry);
  const inputs: InputFlowNode[] = chain.inputs.map((input) => {
    const id = inputNodeId(input.name);
    return {
      id,
      type: 'chainInput',
      position: positions.get(input.name) ?? { x: 0, y: 0 },
      data: { input, role: o.highlight?.sources.includes(input.name) ? 'source' : undefined },
      selected: o.selectedInput === input.name,
      draggable: false,
      measured: o.measured[id],
    };
  });
  const steps: StepFlowNode[] = chain.steps.map((step) => ({
    id: step.id,
    type: 'step',
    position: o.dragging[step.id] ?? step.position,
    data: {
      step,
      problems: o.problemCounts.get(step.id) ?? 0,
      warnings: o.lintCounts.get(step.id) ?? 0,
      run: o.runInfo.get(step.id),
      role: o.highlight?.producer === step.id ? 'producer' : o.highlight?.consumer === step.id ? 'consumer' : undefined,
    },
    selected: o.selectedStepId === step.id,
    measured: o.measured[step.id],
  }));
  return [...inputs, ...steps];
}

export function buildEdges(chain: Chain, registry: StepRegistry, selected: readonly string[], highlight: Highlight | null): FlowEdge[] {
  const edges: FlowEdge[] = [];
  for (const step of chain.steps) {
    for (const [binding, ref] of Object.entries(bindingsOf(registry, step))) {
      const parsed = safeParseRef(ref);
      if (parsed?.root !== 'inputs' || !chain.inputs.some((i) => i.name === parsed.name)) continue;
      const id = `input:${parsed.name}->${step.id}:${binding}`;
      edges.push({
        id, source: inputNodeId(parsed.name), target: step.id, label: binding, className: 'edge-input',
        data: { kind: 'input', source: parsed.name, target: step.id, binding }, selected: selected.includes(id),
      });
    }
  }
  for (const e of chainEdges(chain, registry)) {
    const isData = e.kind === 'data';
    const lit = highlight?.edgeId === e.id;
    edges.push({
      id: e.id,
      source: e.source,
      target: e.target,
      label: e.label,
      className: [isData ? 'edge-data' : 'edge-branch', lit ? 'edge-lit' : ''].filter(Boolean).join(' '),
      animated: lit,
      data: { kind: isData ? 'data' : 'branch', source: e.source, target: e.target, binding: e.label },
      selected: selected.includes(e.id),
      zIndex: lit ? 10 : 0,
    });
  }
  return edges;
}
