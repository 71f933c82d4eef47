import { chainEdges, type ChainEdge } from '../chain/graph.ts';
import { parseRef } from '../chain/refs.ts';
import type { Chain, StepDef } from '../chain/schema.ts';
import { stringifyForPrompt } from '../chain/template.ts';
import type { ChatMessage } from '../providers/types.ts';
import type { StepRegistry } from '../steps/index.ts';
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
  /**
   * The chain inputs the consumer binds itself, beside the producer's output (a retrieve step's
   * document next to the rewritten query): facts the handoff dropped from them are still within
   * its reach. Absent on boundaries built by hand.
   */
  consumerInputs?: { name: string; text: string }[];
  received: { messages: ChatMessage[]; segments: PromptSegment[] } | null;
  consumerOutput: unknown;
  /**
   * The consumer only chooses a route in code from what it reads (a router on a label): the
   * source's facts are not its material, so facts the handoff dropped are not a loss to it.
   * Absent on boundaries built by hand.
   */
  consumerRoutes?: boolean;
}

export interface RunView {
  steps: StepView[];
  boundaries: Boundary[];
}

/** What one step binds: the chain inputs it reads itself, the steps it reads, and whether it passes a binding through. */
interface StepReads {
  inputs: string[];
  steps: string[];
  passThrough: boolean;
}

/** Each step's bindings, parsed once per step and remembered (a trace's chain is untrusted: an unknown or bad step reads nothing). */
function stepReads(chain: Chain, registry: StepRegistry): (stepId: string) => StepReads {
  const stepsById = new Map(chain.steps.map((s) => [s.id, s]));
  const memo = new Map<string, StepReads>();
  return (stepId) => {
    let known = memo.get(stepId);
    if (known) return known;
    const step = stepsById.get(stepId);
    const def = step && registry.get(step.kind);
    const parsed = step && def ? def.config.safeParse(step.config) : undefined;
    known = { inputs: [], steps: [], passThrough: def?.produces.by === 'passThrough' };
    if (def && parsed?.success) {
      for (const ref of Object.values(def.bindings(parsed.data))) {
        const { root, name } = parseRef(ref);
        (root === 'inputs' ? known.inputs : known.steps).push(name);
      }
    }
    memo.set(stepId, known);
    return known;
  };
}

/**
 * The chain inputs each step read, directly or through earlier steps, worked out once per
 * step and remembered: asking it afresh for every boundary walked the whole chain upstream
 * each time (a 5,000-step trace took minutes to inspect). A trace's chain is untrusted, so a
 * step reached again while its own inputs are being worked out (a cycle) adds nothing.
 */
function inputClosures(readsOf: (stepId: string) => StepReads): (stepId: string) => string[] {
  const memo = new Map<string, string[]>();
  const open = new Set<string>();
  const closure = (stepId: string): string[] => {
    const known = memo.get(stepId);
    if (known) return known;
    if (open.has(stepId)) return [];
    open.add(stepId);
    const reads = readsOf(stepId);
    const result = [...new Set([...reads.inputs, ...reads.steps.flatMap(closure)])];
    open.delete(stepId);
    memo.set(stepId, result);
    return result;
  };
  return closure;
}

/**
 * The chain inputs a step binds itself as material for what it produces. A step that passes one
 * binding through (a gate) reads its other inputs only to check against them: none is material.
 */
function materialInputs(readsOf: (stepId: string) => StepReads): (stepId: string) => string[] {
  return (stepId) => {
    const reads = readsOf(stepId);
    return reads.passThrough ? [] : [...new Set(reads.inputs)];
  };
}

/** A step's view before any event about it: named from the chain (an unknown id stays as it is). */
function emptyStepView(chain: Chain, stepsById: ReadonlyMap<string, StepDef>, stepId: string): StepView {
  const step = stepsById.get(stepId);
  return { stepId, name: step?.name || stepId, kind: step?.kind ?? 'unknown', status: 'pending', attempts: [], checks: [], transportRetries: [] };
}

/** Applies one event to the view of the step it is about, in place. */
function applyStepEvent(v: StepView, e: TraceEvent): void {
  switch (e.type) {
    case 'step.started': v.status = 'running'; break;
    case 'step.attempt': v.attempts.push({ attempt: e.attempt, record: e.record }); break;
    case 'step.check': v.checks.push({ check: e.check, passed: e.passed, problems: e.problems }); break;
    case 'step.transport_retry': v.transportRetries.push({ attempt: e.attempt, error: e.error, status: e.status, waitMs: e.waitMs }); break;
    case 'step.route': v.route = { label: e.label, chosen: e.chosen }; break;
    case 'step.finished': Object.assign(v, { status: e.status, output: e.output, failure: e.failure, latencyMs: e.latencyMs, fallbackTo: e.fallbackTo }); break;
    default: break;
  }
}

/** The step an event is about, for the events a step view shows; null for run-level events. */
function stepOf(e: TraceEvent): string | null {
  switch (e.type) {
    case 'step.started': case 'step.attempt': case 'step.check': case 'step.transport_retry': case 'step.route': case 'step.finished': return e.stepId;
    default: return null;
  }
}

const ran = (s: StepView | undefined) => s !== undefined && s.status !== 'skipped' && s.status !== 'pending';

/**
 * The chain's data edges and input closures, per chain snapshot and registry. Every run of one
 * chain object shares its snapshot (the engine makes one per chain), so a batch of a thousand
 * runs parses the step configs once, not once per run; snapshots are never edited.
 */
interface ChainShape {
  edges: ChainEdge[];
  closureOf: (stepId: string) => string[];
  directOf: (stepId: string) => string[];
}
const shapeCache = new WeakMap<object, WeakMap<StepRegistry, ChainShape>>();

function makeShape(chain: Chain, registry: StepRegistry): ChainShape {
  const readsOf = stepReads(chain, registry);
  return { edges: chainEdges(chain, registry).filter((e) => e.kind === 'data'), closureOf: inputClosures(readsOf), directOf: materialInputs(readsOf) };
}

function chainShape(chain: Chain, registry: StepRegistry): ChainShape {
  if (typeof chain !== 'object' || chain === null) return makeShape(chain, registry);
  let byRegistry = shapeCache.get(chain);
  if (!byRegistry) shapeCache.set(chain, (byRegistry = new WeakMap()));
  let shape = byRegistry.get(registry);
  if (!shape) byRegistry.set(registry, (shape = makeShape(chain, registry)));
  return shape;
}

/** What the boundary views of one run share: the chain's data edges and the sources each producer read. */
function boundaryContext(meta: RunMeta, registry: StepRegistry) {
  const chain = meta.chain as Chain;
  const { edges, closureOf, directOf } = chainShape(chain, registry);
  const texts = new Map<string, string>();
  const inputText = (name: string) => {
    let text = texts.get(name);
    if (text === undefined) texts.set(name, (text = stringifyForPrompt(Object.hasOwn(meta.inputs, name) ? meta.inputs[name] : undefined)));
    return text;
  };
  const sources = new Map<string, Boundary['sources']>();
  const sourcesOf = (producer: string) => {
    let list = sources.get(producer);
    if (!list) sources.set(producer, (list = closureOf(producer).map((name) => ({ name, text: inputText(name) }))));
    return list;
  };
  const consumerInputs = new Map<string, Boundary['sources']>();
  const consumerInputsOf = (consumer: string) => {
    let list = consumerInputs.get(consumer);
    if (!list) consumerInputs.set(consumer, (list = directOf(consumer).map((name) => ({ name, text: inputText(name) }))));
    return list;
  };
  const routes = new Map<string, boolean>();
  let stepsById: Map<string, StepDef> | undefined;
  const routesOf = (stepId: string): boolean => {
    let known = routes.get(stepId);
    if (known === undefined) {
      stepsById ??= new Map(chain.steps.map((s) => [s.id, s]));
      const step = stepsById.get(stepId);
      const def = step && registry.get(step.kind);
      const parsed = step && def ? def.config.safeParse(step.config) : undefined;
      known = def !== undefined && parsed?.success === true && def.produces.by === 'code' && def.branches(parsed.data).some((b) => b.kind === 'route');
      routes.set(stepId, known);
    }
    return known;
  };
  const boundary = (edge: ChainEdge, producer: StepView | undefined, consumer: StepView): Boundary => {
    const last = consumer.attempts[consumer.attempts.length - 1]?.record;
    const consumerRoutes = routesOf(edge.target);
    return {
      id: edge.id, producer: edge.source, consumer: edge.target, binding: edge.label,
      intermediate: producer?.output,
      sources: sourcesOf(edge.source),
      consumerInputs: consumerInputsOf(edge.target),
      received: last ? { messages: last.messages, segments: last.segments } : null,
      consumerOutput: consumer.output,
      ...(consumerRoutes ? { consumerRoutes } : {}),
    };
  };
  return { chain, edges, boundary };
}

export function buildRunView(meta: RunMeta, events: readonly TraceEvent[], registry: StepRegistry): RunView {
  const { chain, edges, boundary } = boundaryContext(meta, registry);
  const stepsById = new Map(chain.steps.map((s) => [s.id, s]));
  const byId = new Map<string, StepView>();
  const order: string[] = [];
  for (const e of events) {
    const stepId = stepOf(e);
    if (stepId === null) continue;
    let v = byId.get(stepId);
    if (!v) {
      v = emptyStepView(chain, stepsById, stepId);
      byId.set(stepId, v);
      order.push(stepId);
    }
    applyStepEvent(v, e);
  }
  const steps = order.map((id) => byId.get(id) as StepView);
  const position = new Map(order.map((id, i) => [id, i]));
  const at = (id: string) => position.get(id) ?? -1;
  const boundaries: Boundary[] = edges
    .filter((e) => ran(byId.get(e.source)) && ran(byId.get(e.target)))
    .sort((a, b) => at(a.target) - at(b.target) || at(a.source) - at(b.source))
    .map((edge) => boundary(edge, byId.get(edge.source), byId.get(edge.target) as StepView));
  return { steps, boundaries };
}

/**
 * The live replay's view, folded event by event: `view()` gives what `buildRunView` gives for
 * the events added so far, but each call costs only what changed since the last one (the steps
 * those events were about, and the boundaries into and out of them), not the whole trace.
 * Views it has handed out are never changed afterwards: a step or boundary that changed is a
 * new object, and an unchanged one keeps its identity (so React skips it). What remains per
 * call is copying the two arrays of references when something in them changed.
 *
 * @example
 * const live = createRunViewBuilder(meta);
 * for (const event of batch) live.add(event);
 * store.setView(live.view());
 */
export interface RunViewBuilder {
  add(event: TraceEvent): void;
  view(): RunView;
}

export function createRunViewBuilder(meta: RunMeta, registry: StepRegistry): RunViewBuilder {
  const { chain, edges, boundary } = boundaryContext(meta, registry);
  const stepsById = new Map(chain.steps.map((s) => [s.id, s]));
  const edgeIndex = new Map(edges.map((e, i) => [e, i]));
  const edgesOf = new Map<string, ChainEdge[]>();
  for (const e of edges) {
    for (const id of new Set([e.source, e.target])) {
      const list = edgesOf.get(id);
      if (list) list.push(e);
      else edgesOf.set(id, [e]);
    }
  }
  const byId = new Map<string, StepView>();
  const position = new Map<string, number>();
  const shown = new Map<ChainEdge, Boundary>();
  /** Steps changed since the last view(): their objects are new since then, so they may change in place. */
  const dirty = new Set<string>();
  let view: RunView = { steps: [], boundaries: [] };
  let added = false;

  // Boundaries are ordered by consumer, then producer, by when each step first appeared, then
  // as the chain lists its edges: buildRunView's (stable) sort, kept by binary insertion.
  const key = (e: ChainEdge) => [position.get(e.target) ?? -1, position.get(e.source) ?? -1, edgeIndex.get(e) ?? -1] as const;
  const before = (a: readonly number[], b: readonly number[]) => a[0]! - b[0]! || a[1]! - b[1]! || a[2]! - b[2]!;
  const edgeOf = new Map<Boundary, ChainEdge>();
  const find = (list: readonly Boundary[], e: ChainEdge) => {
    const k = key(e);
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (before(key(edgeOf.get(list[mid]!)!), k) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };

  return {
    add: (e) => {
      const stepId = stepOf(e);
      if (stepId === null) return;
      let v = byId.get(stepId);
      if (!v) {
        v = emptyStepView(chain, stepsById, stepId);
        position.set(stepId, position.size);
      } else if (!dirty.has(stepId)) {
        // Handed out in an earlier view: copy before changing.
        v = { ...v, attempts: [...v.attempts], checks: [...v.checks], transportRetries: [...v.transportRetries] };
      }
      byId.set(stepId, v);
      dirty.add(stepId);
      applyStepEvent(v, e);
      added = true;
    },
    view: () => {
      if (!added) return view;
      added = false;
      const steps = view.steps.slice();
      let boundaries: Boundary[] | null = null;
      for (const stepId of dirty) {
        const v = byId.get(stepId) as StepView;
        const at = position.get(stepId) as number;
        if (at === steps.length) steps.push(v);
        else steps[at] = v;
        for (const e of edgesOf.get(stepId) ?? []) {
          const old = shown.get(e);
          const producer = byId.get(e.source);
          const consumer = byId.get(e.target);
          boundaries ??= view.boundaries.slice();
          if (old) {
            const i = find(boundaries, e);
            boundaries.splice(i, 1);
            shown.delete(e);
            edgeOf.delete(old);
          }
          if (ran(producer) && ran(consumer)) {
            const next = boundary(e, producer, consumer as StepView);
            edgeOf.set(next, e);
            boundaries.splice(find(boundaries, e), 0, next);
            shown.set(e, next);
          }
        }
      }
      dirty.clear();
      view = { steps, boundaries: boundaries ?? view.boundaries };
      return view;
    },
  };
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
