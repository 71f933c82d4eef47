import type { Edge, Node } from '@xyflow/react';
import { chainEdges } from '../../src/chain/index.ts';
import { parseRef } from '../../src/chain/index.ts';
import type { Chain, ChainInput, StepDef } from '../../src/chain/index.ts';
import type { StepMetrics } from '../../src/inspect/index.ts';
import type { StepRegistry } from '../../src/steps/index.ts';
import { formatMs } from '../ui/format.ts';

/**
 * Chain → React Flow nodes and edges. The chain is the only source of truth; these arrays
 * are derived on every change (cheap at chain sizes a person draws) and never stored.
 */

export type NodeRunStatus = 'running' | 'succeeded' | 'failed' | 'skipped' | 'abstained' | 'escalated' | 'pending';

export interface StepRunInfo {
  status: NodeRunStatus;
  failure?: string;
  endpointError?: string;
  /** The tail of the text streaming in for the running attempt. */
  partial?: string;
}

/** A step's metrics across stored runs, as the node badge shows them. */
export interface NodeMetrics {
  label: string;
  title: string;
}

export type StepNodeData = {
  step: StepDef;
  problems: number;
  /** Design-lint errors and warnings on this step. */
  warnings: number;
  run?: StepRunInfo;
  role?: 'producer' | 'consumer';
  metrics?: NodeMetrics;
};
export type InputNodeData = { input: ChainInput; role?: 'source' };
export type StepFlowNode = Node<StepNodeData, 'step'>;
export type InputFlowNode = Node<InputNodeData, 'chainInput'>;
export type FlowNode = StepFlowNode | InputFlowNode;

export type FlowEdgeData = {
  kind: 'data' | 'input' | 'branch'; source: string; target: string; binding: string;
  /** Where the label goes when the midpoint is under a card (see app/designer/edge-labels.ts). */
  labelAt?: { x: number; y: number };
};
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
  /** Every selected step, when more than one can be (multi-select); else `selectedStepId` alone. */
  selectedStepIds?: ReadonlySet<string>;
  selectedInput: string | null;
  problemCounts: ReadonlyMap<string, number>;
  lintCounts: ReadonlyMap<string, number>;
  runInfo: ReadonlyMap<string, StepRunInfo>;
  measured: Readonly<Record<string, { width: number; height: number }>>;
  dragging: Readonly<Record<string, { x: number; y: number }>>;
  highlight: Highlight | null;
  /** Per-step metrics across the chain's stored runs; steps that never called a model get no badge. */
  metrics?: ReadonlyMap<string, StepMetrics>;
}

const pct = (rate: number) => `${Math.round(rate * 100)}%`;

/** "retry 33% · p95 1.2 s": only the rates that are not zero, then the tail latency. */
export function nodeMetrics(m: StepMetrics | undefined): NodeMetrics | undefined {
  if (!m || m.attempts === 0) return undefined;
  const parts = [
    m.validationFailureRate > 0 ? `invalid ${pct(m.validationFailureRate)}` : '',
    m.retryRate > 0 ? `retry ${pct(m.retryRate)}` : '',
    m.abstainRate + m.escalateRate > 0 ? `abstain/escalate ${pct(m.abstainRate + m.escalateRate)}` : '',
    `p95 ${formatMs(m.latencyP95)}`,
  ].filter(Boolean);
  const title = `Across ${m.runs} run${m.runs === 1 ? '' : 's'}: ${m.attempts} attempts, validation failures ${pct(m.validationFailureRate)}, retried in ${pct(m.retryRate)} of runs, p50 ${formatMs(m.latencyP50)}, p95 ${formatMs(m.latencyP95)}`;
  return { label: parts.join(' · '), title };
}

function bindingsOf(registry: StepRegistry, step: StepDef): Record<string, string> {
  const def = registry.get(step.kind);
  const parsed = def?.config.safeParse(step.config);
  return def && parsed?.success ? def.bindings(parsed.data) : {};
}

/** Inputs sit in a column left of the steps, each near the steps that read it. */
function inputPositions(chain: Chain, registry: StepRegistry): Map<string, { x: number; y: number }> {
  const xs = chain.steps.map((s) => s.position.x);
  // With no steps yet, inputs start at the origin (in view), not left of it.
  const minX = xs.length ? Math.min(...xs) : 300;
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
    out.set(input.name, { x: minX - 300, y });
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
      position: o.dragging[id] ?? input.position ?? positions.get(input.name) ?? { x: 0, y: 0 },
      data: { input, role: o.highlight?.sources.includes(input.name) ? 'source' : undefined },
      selected: o.selectedInput === input.name,
      ariaLabel: `Input ${input.name}${input.trust === 'untrusted' ? ' (untrusted)' : ''}`,
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
      metrics: nodeMetrics(o.metrics?.get(step.id)),
    },
    selected: o.selectedStepIds ? o.selectedStepIds.has(step.id) : o.selectedStepId === step.id,
    measured: o.measured[step.id],
    ariaLabel: `${registry.get(step.kind)?.title ?? step.kind} step ${step.id}${step.name && step.name !== step.id ? `: ${step.name}` : ''}`,
  }));
  return [...inputs, ...steps];
}

const noLossy: ReadonlySet<string> = new Set();

/** `lossy`: boundary ids the replayed run flags as likely lossy; their edges say so in words and colour. */
export function buildEdges(chain: Chain, registry: StepRegistry, selected: readonly string[], highlight: Highlight | null, lossy = noLossy): FlowEdge[] {
  const edges: FlowEdge[] = [];
  for (const step of chain.steps) {
    for (const [binding, ref] of Object.entries(bindingsOf(registry, step))) {
      const parsed = safeParseRef(ref);
      if (parsed?.root !== 'inputs' || !chain.inputs.some((i) => i.name === parsed.name)) continue;
      const id = `input:${parsed.name}->${step.id}:${binding}`;
      edges.push({
        id, type: 'chain', source: inputNodeId(parsed.name), target: step.id, label: binding, className: 'edge-input',
        data: { kind: 'input', source: parsed.name, target: step.id, binding }, selected: selected.includes(id),
      });
    }
  }
  for (const e of chainEdges(chain, registry)) {
    const isData = e.kind === 'data';
    const lit = highlight?.edgeId === e.id;
    const isLossy = isData && lossy.has(e.id);
    edges.push({
      id: e.id,
      type: 'chain',
      source: e.source,
      target: e.target,
      label: isLossy ? `${e.label} · likely lossy` : e.label,
      className: [isData ? 'edge-data' : 'edge-branch', lit ? 'edge-lit' : '', isLossy ? 'edge-lossy' : ''].filter(Boolean).join(' '),
      animated: lit,
      data: { kind: isData ? 'data' : 'branch', source: e.source, target: e.target, binding: e.label },
      selected: selected.includes(e.id),
      zIndex: lit || isLossy ? 10 : 0,
    });
  }
  return edges;
}
