import { chainEdges } from '../chain/graph.ts';
import { parseRef } from '../chain/refs.ts';
import type { Chain } from '../chain/schema.ts';
import { stringifyForPrompt } from '../chain/template.ts';
import type { ChatMessage } from '../providers/types.ts';
import { stepRegistry } from '../steps/index.ts';
import type { StepRegistry } from '../steps/registry.ts';
import type { AttemptRecord, PromptSegment, RunMeta, StepStatus, TraceEvent } from './events.ts';

/**
 * Turns a stored run into what the replay view shows: each step with its attempts, and each
 * boundary (producer → consumer) with the source the producer read, the intermediate it
 * emitted, and exactly what the consumer received. Pure: replay never calls a model.
 */
export interface StepView {
  stepId: string;
  name: string;
  kind: string;
  status: StepStatus | 'running' | 'pending';
  attempts: { attempt: number; record: AttemptRecord }[];
  checks: { check: string; passed: boolean; problems: string[] }[];
  transportRetries: { attempt: number; error: string; status: number | null; waitMs: number }[];
  route?: { label: string; chosen: string[] };
  output?: unknown;
  failure?: { code: string; message: string };
  fallbackTo?: string;
  latencyMs?: number;
}

export interface Boundary {
  id: string;
  producer: string;
  consumer: string;
  binding: string;
  intermediate: unknown;
  /** The chain inputs the producer read, directly or through earlier steps. */
  sources: { name: string; text: string }[];
  received: { messages: ChatMessage[]; segments: PromptSegment[] } | null;
  consumerOutput: unknown;
}

export interface RunView {
  steps: StepView[];
  boundaries: Boundary[];
}

/**
 * The chain inputs each step read, directly or through earlier steps, worked out once per
 * step and remembered: asking it afresh for every boundary walked the whole chain upstream
 * each time (a 5,000-step trace took minutes to inspect). A trace's chain is untrusted, so a
 * step reached again while its own inputs are being worked out (a cycle) adds nothing.
 */
function inputClosures(chain: Chain, registry: StepRegistry): (stepId: string) => string[] {
  const stepsById = new Map(chain.steps.map((s) => [s.id, s]));
  const memo = new Map<string, string[]>();
  const open = new Set<string>();
  const closure = (stepId: string): string[] => {
    const known = memo.get(stepId);
    if (known) return known;
    if (open.has(stepId)) return [];
    open.add(stepId);
    const step = stepsById.get(stepId);
    const def = step && registry.get(step.kind);
    const parsed = step && def ? def.config.safeParse(step.config) : undefined;
    const direct: string[] = [];
    const upstream: string[] = [];
    if (def && parsed?.success) {
      for (const ref of Object.values(def.bindings(parsed.data))) {
        const { root, name } = parseRef(ref);
        if (root === 'inputs') direct.push(name);
        else upstream.push(...closure(name));
      }
    }
    const result = [...new Set([...direct, ...upstream])];
    open.delete(stepId);
    memo.set(stepId, result);
    return result;
  };
  return closure;
}

export function buildRunView(meta: RunMeta, events: readonly TraceEvent[], registry: StepRegistry = stepRegistry): RunView {
  const chain = meta.chain as Chain;
  const stepsById = new Map(chain.steps.map((s) => [s.id, s]));
  const byId = new Map<string, StepView>();
  const order: string[] = [];
  const view = (stepId: string): StepView => {
    let v = byId.get(stepId);
    if (!v) {
      const step = stepsById.get(stepId);
      v = { stepId, name: step?.name || stepId, kind: step?.kind ?? 'unknown', status: 'pending', attempts: [], checks: [], transportRetries: [] };
      byId.set(stepId, v);
      order.push(stepId);
    }
    return v;
  };
  for (const e of events) {
    switch (e.type) {
      case 'step.started': view(e.stepId).status = 'running'; break;
      case 'step.attempt': view(e.stepId).attempts.push({ attempt: e.attempt, record: e.record }); break;
      case 'step.check': view(e.stepId).checks.push({ check: e.check, passed: e.passed, problems: e.problems }); break;
      case 'step.transport_retry': view(e.stepId).transportRetries.push({ attempt: e.attempt, error: e.error, status: e.status, waitMs: e.waitMs }); break;
      case 'step.route': view(e.stepId).route = { label: e.label, chosen: e.chosen }; break;
      case 'step.finished': Object.assign(view(e.stepId), { status: e.status, output: e.output, failure: e.failure, latencyMs: e.latencyMs, fallbackTo: e.fallbackTo }); break;
      default: break;
    }
  }
  const steps = order.map((id) => byId.get(id) as StepView);
  const ran = (id: string) => { const s = byId.get(id); return s && s.status !== 'skipped' && s.status !== 'pending'; };
  const inputText = (name: string) => stringifyForPrompt(Object.hasOwn(meta.inputs, name) ? meta.inputs[name] : undefined);
  const position = new Map(order.map((id, i) => [id, i]));
  const at = (id: string) => position.get(id) ?? -1;
  const closureOf = inputClosures(chain, registry);
  const boundaries: Boundary[] = chainEdges(chain, registry)
    .filter((e) => e.kind === 'data' && ran(e.source) && ran(e.target))
    .sort((a, b) => at(a.target) - at(b.target) || at(a.source) - at(b.source))
    .map((edge) => {
      const consumer = byId.get(edge.target) as StepView;
      const last = consumer.attempts[consumer.attempts.length - 1]?.record;
      return {
        id: edge.id, producer: edge.source, consumer: edge.target, binding: edge.label,
        intermediate: byId.get(edge.source)?.output,
        sources: closureOf(edge.source).map((name) => ({ name, text: inputText(name) })),
        received: last ? { messages: last.messages, segments: last.segments } : null,
        consumerOutput: consumer.output,
      };
    });
  return { steps, boundaries };
}

/**
 * The steps whose checks judged what crossed `boundary`: only the consumer, when it checks (a
 * gate). A gate's verdict belongs to the boundary into that gate; a gate that also reads an
 * earlier step (the retrieved sections a citation check compares against) does not judge that
 * earlier handoff, so its badge is not shown there.
 *
 * @example
 * for (const gate of checksOnBoundary(view, boundary)) badge(gate.name, gate.checks);
 */
export function checksOnBoundary(view: RunView, boundary: Boundary): StepView[] {
  const consumer = view.steps.find((s) => s.stepId === boundary.consumer);
  return consumer && consumer.checks.length > 0 ? [consumer] : [];
}

/**
 * A boundary in words, step names first and ids second: `Extract facts (model_1) → Classify
 * (model_2)`. A step without a name (or named as its id) shows its id once.
 */
export function boundaryLabel(view: RunView, boundary: Pick<Boundary, 'producer' | 'consumer'>): string {
  const named = (id: string) => stepLabel(id, view.steps.find((s) => s.stepId === id)?.name);
  return `${named(boundary.producer)} → ${named(boundary.consumer)}`;
}

/** A step as people read it: its name, then its id when the two differ (`Classify (model_2)`). */
export function stepLabel(id: string, name: string | undefined): string {
  return name && name !== id ? `${name} (${id})` : id;
}
