import { hashValue } from '../chain/hash.ts';
import { namedProfile } from '../steps/model.config.ts';
import { parseChain, type ParseChainResult } from '../chain/parse.ts';
import { parseRef, resolveParsedRef, type ParsedRef } from '../chain/refs.ts';
import type { Chain } from '../chain/schema.ts';
import { ProviderError } from '../providers/errors.ts';
import { combineScrubbers, shapeScrubber, type Scrubber } from '../providers/scrub.ts';
import { loadTokenCounter, type TokenCounter } from '../providers/tokenizer.ts';
import type { ModelProvider, TokenUsage } from '../providers/types.ts';
import { fallbackTarget } from '../steps/common.ts';
import { chainEgress, egressRefusal, unconfirmedTargets, type EgressTarget } from '../steps/egress.ts';
import { stepRegistry } from '../steps/index.ts';
import type { StepRegistry } from '../steps/registry.ts';
import type { StepFailure, StepOutcome, StepRunContext } from '../steps/types.ts';
import { TRACE_VERSION, type RunMeta, type RunStatus, type TraceEvent } from '../trace/events.ts';
import { createTraceRecorder } from '../trace/recorder.ts';
import type { RunRepository } from '../trace/repository.ts';
import { BudgetGuard, tighterBudget, type RunBudget } from './budget.ts';
import { callModelWithRetries, defaultTransportPolicy, type TransportPolicy } from './call-model.ts';
import { chainEdges, topologicalOrder } from '../chain/graph.ts';
import { checkInputs } from './inputs.ts';
import { restoreFromEvents } from './restore.ts';
import { planChain, type PlannedStep } from './plan.ts';
import { createSchemaValidator, type SchemaValidator } from './validate.ts';
import { asRunId, type RunId } from '../chain/ids.ts';
import { ReadyQueue } from './ready-queue.ts';
import { unboundReads } from '../chain/unbound.ts';

/** The model settings a run takes from its endpoint profile. */
export interface RunModelSettings {
  name: string;
  maxOutputTokens: number;
  structuredOutput: boolean;
  contextWindow?: number;
  /** USD per million tokens, for cost per attempt, step and run. */
  prices?: { input: number; output: number };
}

export interface RunOptions {
  chain: Chain;
  inputs: Record<string, unknown>;
  provider: ModelProvider;
  model: RunModelSettings;
  /**
   * Further endpoints by profile name, for steps whose config names a `profile`. A step naming
   * a profile not given here calls the run's endpoint (the caller decides whether that is an
   * error before the run; the app refuses, the CLI warns).
   */
  profiles?: Readonly<Record<string, { provider: ModelProvider; model: RunModelSettings }>>;
  repo: RunRepository;
  /**
   * Origins the run may send data to beside its model endpoints (webhooks), as the person
   * confirmed them (the app's dialog, the CLI's --allow-webhook). Default: none. A chain
   * reaching any other origin fails at the start, before any model call.
   */
  allowEgress?: readonly string[];
  /** How the caller lets a person allow an origin, for the refusal message. */
  egressHint?: string;
  fetch?: typeof fetch;
  signal?: AbortSignal;
  runId?: string;
  /** The caller's id for the endpoint profile the run calls (the app's), kept on the run: a resumed run calls the same one. */
  profileId?: string;
  onEvent?: (event: TraceEvent) => void;
  /** Partial text as it streams in (model steps with `stream: true`), for live display; not recorded. */
  onDelta?: (stepId: string, text: string, unit?: string) => void;
  now?: () => number;
  registry?: StepRegistry;
  transport?: Partial<TransportPolicy>;
  /** Limits on what this run may spend; tightens the chain's own `budget`, never loosens it. */
  budget?: RunBudget;
  /** How many independent steps may run at once. */
  concurrency?: number;
  countTokens?: TokenCounter;
  validator?: SchemaValidator;
  /**
   * Continue an interrupted run: the events it had made durable. Completed steps and map units
   * are restored from them and never called again; the run keeps its id.
   */
  resume?: { events: readonly TraceEvent[] };
  /** A new run that starts from outputs restored out of another run (rerun from a step). */
  fork?: { events: readonly TraceEvent[]; from: NonNullable<RunMeta['forkedFrom']> };
}

const budgetError = (reason: string) => `Run budget reached: ${reason}. Nothing more was sent; raise the budget to go on.`;

/** What an interrupted run had spent, from its trace (a resumed run keeps the same budget). */
function spendOf(events: readonly TraceEvent[]): { steps: number; requests: number; tokens: number; costUsd: number } {
  let steps = 0;
  let requests = 0;
  let tokens = 0;
  let costUsd = 0;
  for (const e of events) {
    if (e.type === 'step.started') steps++;
    if (e.type === 'step.attempt' && e.record.usage) {
      requests++;
      tokens += e.record.usage.inputTokens + e.record.usage.outputTokens;
      costUsd += e.record.costUsd ?? 0;
    }
  }
  return { steps, requests, tokens, costUsd };
}

export type StepState = 'pending' | 'running' | 'done' | 'skipped' | 'failed';

const SETTLED: ReadonlySet<StepState> = new Set(['done', 'skipped', 'failed']);

/** Each step's state; tells `onSettle` when a step is done, skipped or failed. */
class StepStates extends Map<string, StepState> {
  constructor(ids: Iterable<string>, private readonly onSettle: (id: string) => void) {
    super();
    for (const id of ids) super.set(id, 'pending');
  }

  override set(id: string, value: StepState): this {
    super.set(id, value);
    if (SETTLED.has(value)) this.onSettle(id);
    return this;
  }
}

/** The run's end when a step's retries and fallbacks are spent, by its on-fail policy. */
export const HALT_STATUS: Readonly<Record<string, RunStatus>> = { abort: 'failed', abstain: 'abstained', escalate: 'escalated' };

function addUsage(total: TokenUsage & { costUsd: number }, event: TraceEvent): void {
  if (event.type !== 'step.attempt' || !event.record.usage) return;
  total.inputTokens += event.record.usage.inputTokens;
  total.outputTokens += event.record.usage.outputTokens;
  total.costUsd += event.record.costUsd ?? 0;
}

/**
 * Runs a chain to a defined end state and records every step and attempt as trace events.
 * Each completed step is flushed to the repository before the steps after it start.
 *
 * @example
 * const run = await runChain({ chain, inputs: { question }, provider: createDemoProvider(),
 *   model: runModelSettings(demoProfile), repo: createMemoryRunRepository() });
 * console.log(run.status, run.output);
 */
export async function runChain(opts: RunOptions): Promise<RunMeta> {
  const now = opts.now ?? Date.now;
  const registry = opts.registry ?? stepRegistry;
  const cancel = opts.signal ?? new AbortController().signal;
  const runId = asRunId(opts.runId ?? globalThis.crypto.randomUUID());
  const usage = { inputTokens: 0, outputTokens: 0, costUsd: 0 };
  const prepared = prepare(opts.chain, registry);
  const budget = new BudgetGuard(tighterBudget(prepared.parsed.ok ? prepared.parsed.chain.budget : undefined, opts.budget), now);
  if (opts.resume) budget.restore(spendOf(opts.resume.events));
  // The time budget cancels what is still in flight at its deadline, as the person's Cancel does.
  // With a time budget, one controller for both: the person's cancel is linked into it by a
  // listener removed when the run ends (AbortSignal.any would keep a weak reference per run on a
  // batch's shared signal). Without one, the cancel signal is the run's own.
  const timeLeft = budget.timeLeftMs();
  const halt = timeLeft === null ? null : new AbortController();
  const signal = halt ? halt.signal : cancel;
  const onCancel = () => halt?.abort(cancel.reason);
  if (halt && cancel.aborted) onCancel();
  else if (halt) cancel.addEventListener('abort', onCancel, { once: true });
  const deadline = timeLeft === null ? undefined : setTimeout(() => {
    budget.stop(`time budget of ${budget.budget.maxTimeMs} ms reached`);
    halt?.abort();
  }, timeLeft);
  // The last line of defence: whatever path a key took, no event or run record carries it.
  const scrub = runScrubber(opts);
  const meta: RunMeta = {
    id: runId, traceVersion: TRACE_VERSION, chainId: opts.chain.id, chainName: opts.chain.name, chainRevision: prepared.revision,
    chain: prepared.snapshot, inputs: scrub.keysOnly.value(structuredClone(opts.inputs)), provider: opts.provider.kind, model: opts.model.name,
    status: 'running', startedAt: now(), ...(opts.profileId ? { profileId: opts.profileId } : {}), ...(opts.fork ? { forkedFrom: opts.fork.from } : {}),
  };
  if (opts.resume) await opts.repo.updateRun(runId, { status: 'running' });
  else await opts.repo.createRun(meta);
  const recorder = createTraceRecorder(opts.repo, runId, {
    onEvent: (event) => {
      addUsage(usage, event);
      opts.onEvent?.(event);
    },
  });
  const emit = (event: TraceEvent) => recorder.append(scrub.keysOnly.value(event));
  if (!opts.resume) emit({ type: 'run.started', at: now(), runId, chainId: meta.chainId, chainName: meta.chainName, chainRevision: meta.chainRevision, inputs: meta.inputs, provider: meta.provider, model: meta.model });
  for (const event of opts.resume?.events ?? []) addUsage(usage, event);

  let end: { status: RunStatus; output?: unknown; error?: string; terminalStep?: string };
  try {
    end = await execute(opts, { runId, budget, registry, signal, now, emit, flush: () => recorder.flush() });
  } catch (error) {
    const aborted = signal.aborted || (error instanceof ProviderError && error.code === 'aborted');
    end = aborted && !cancel.aborted && budget.stopReason
      ? { status: 'failed', error: budgetError(budget.stopReason) }
      : aborted ? { status: 'cancelled', error: 'The run was cancelled' }
        // Whatever threw is not our text: it is scrubbed of key shapes too.
        : { status: 'failed', error: `Internal error: ${scrub.text((error as Error).message)}` };
  } finally {
    clearTimeout(deadline);
    cancel.removeEventListener('abort', onCancel);
  }
  // The run's own words keep their shape ("the 1024-token output cap" is no "Token <secret>"): what
  // an endpoint sent was scrubbed of key shapes where it came in, and the keys go here, as in events.
  if (end.error) end.error = scrub.keysOnly.text(end.error);
  if (end.output !== undefined) end.output = scrub.keysOnly.value(end.output);
  emit({ type: 'run.finished', at: now(), ...end });
  await recorder.close();
  const final: RunMeta = { ...meta, status: end.status, output: end.output, error: end.error, finishedAt: now(), usage };
  await opts.repo.updateRun(runId, { status: final.status, output: final.output, error: final.error, finishedAt: final.finishedAt, usage });
  return final;
}

/** Every endpoint's scrubber (each holds its own key), for the run's records. */
function runScrubber(opts: RunOptions): Scrubber {
  const providers = [opts.provider, ...Object.values(opts.profiles ?? {}).map((p) => p.provider)];
  const own = providers.map((p) => p.scrubber).filter((s): s is Scrubber => Boolean(s));
  return combineScrubbers(own.length ? own : [shapeScrubber]);
}

/**
 * Parsing, validating, planning and ordering a chain depend only on the chain and the registry,
 * so they are done once per chain object and reused by every later run of it. A chain object
 * is treated as immutable (the editor's operations in chain/edit.ts all return new chains).
 */
interface PreparedChain {
  revision: string;
  /** The chain exactly as it ran, for RunMeta.chain: one copy shared by the runs of this chain object. */
  snapshot: Chain;
  parsed: ParseChainResult;
  plan?: Map<string, PlannedStep>;
  order?: string[];
  /** Reads nothing is bound to, as `step: message`: the run is refused when there are any. */
  unbound?: string[];
  /** Each step as runEnd reads it: whether it is an output (a terminal that sends nothing out). */
  ends?: { id: string; name: string; output: boolean }[];
  /** The scheduler's tables, which depend only on the plan (see Schedule). */
  schedule?: Schedule;
  /** Every origin a step of the chain would send data to (webhooks), before the run's allowances. */
  egress?: EgressTarget[];
}

/**
 * What the scheduler reads about the chain's shape, made once per chain object (they were made
 * again by every run): step ids in plan order and their index, each step's readers, each step's
 * predecessors (data and route, in one list) and the inputs marked untrusted.
 */
interface Schedule {
  ids: string[];
  index: Map<string, number>;
  readers: Map<string, string[]>;
  preds: Map<string, string[]>;
  untrustedInputs: Set<string>;
}

function scheduleOf(chain: Chain, plan: Map<string, PlannedStep>): Schedule {
  const ids = [...plan.keys()];
  const readers = new Map<string, string[]>();
  const preds = new Map<string, string[]>();
  for (const p of plan.values()) {
    const all = [...p.dataPreds, ...p.routePreds];
    preds.set(p.step.id, all);
    for (const pred of all) {
      const list = readers.get(pred);
      if (list) list.push(p.step.id);
      else readers.set(pred, [p.step.id]);
    }
  }
  return {
    ids, index: new Map(ids.map((id, i) => [id, i])), readers, preds,
    untrustedInputs: new Set(chain.inputs.filter((i) => i.trust === 'untrusted').map((i) => i.name)),
  };
}
const preparedChains = new WeakMap<StepRegistry, WeakMap<Chain, PreparedChain>>();

function prepare(chain: Chain, registry: StepRegistry): PreparedChain {
  let byChain = preparedChains.get(registry);
  if (!byChain) preparedChains.set(registry, (byChain = new WeakMap()));
  let prepared = byChain.get(chain);
  if (!prepared) {
    const parsed = parseChain(chain, registry);
    prepared = { revision: hashValue(chain), snapshot: structuredClone(chain), parsed };
    if (parsed.ok) {
      prepared.plan = planChain(parsed.chain, registry);
      prepared.order = topologicalOrder([...prepared.plan.keys()], chainEdges(parsed.chain, registry)).order;
      prepared.unbound = [...prepared.plan.values()].flatMap((p) => unboundReads(p).map((m) => `${p.step.id}: ${m}`));
      prepared.ends = parsed.chain.steps.map((s) => {
        const def = registry.get(s.kind);
        return { id: s.id, name: s.name, output: Boolean(def?.terminal && !def.egress) };
      });
      prepared.schedule = scheduleOf(parsed.chain, prepared.plan);
      prepared.egress = chainEgress(parsed.chain, registry);
    }
    byChain.set(chain, prepared);
  }
  return prepared;
}

/**
 * A step's bindings with their refs parsed, once per planned step (a plan is made once per chain
 * object and its configs are never changed): a run no longer splits every ref of every step again.
 */
const parsedBindings = new WeakMap<PlannedStep, { name: string; ref: string; parsed: ParsedRef }[]>();
function bindingsOf(planned: PlannedStep): { name: string; ref: string; parsed: ParsedRef }[] {
  let list = parsedBindings.get(planned);
  if (!list) {
    list = Object.entries(planned.def.bindings(planned.config)).map(([name, ref]) => ({ name, ref, parsed: parseRef(ref) }));
    parsedBindings.set(planned, list);
  }
  return list;
}

/** Compiled validators are cached by schema content; one validator serves every run that brings none. */
let defaultValidator: SchemaValidator | null = null;

interface ExecDeps {
  runId: RunId;
  budget: BudgetGuard;
  registry: StepRegistry;
  signal: AbortSignal;
  now: () => number;
  emit: (event: TraceEvent) => void;
  flush: () => Promise<void>;
}

async function execute(opts: RunOptions, deps: ExecDeps): Promise<{ status: RunStatus; output?: unknown; error?: string; terminalStep?: string }> {
  const prepared = prepare(opts.chain, deps.registry);
  const parsed = prepared.parsed;
  if (!parsed.ok) return { status: 'failed', error: `The chain is not valid: ${parsed.problems.map((p) => `${p.path} ${p.message}`).join('; ')}` };
  const chain = parsed.chain;
  // Egress is checked before anything is called, so a refused webhook costs no model call.
  const refused = unconfirmedTargets(prepared.egress ?? [], opts.allowEgress ?? []);
  if (refused.length > 0) return { status: 'failed', error: egressRefusal(refused, opts.egressHint ?? 'the caller did not allow it') };
  // A read nothing is bound to (an Output placed after a branch with no value) would run and
  // return nothing: refused before anything is called.
  const unbound = prepared.unbound ?? [];
  if (unbound.length > 0) return { status: 'failed', error: `The chain cannot run: ${unbound.join('; ')}` };
  const validator = opts.validator ?? (defaultValidator ??= createSchemaValidator());
  // Stop and ask: a missing or malformed input ends the run before any model call.
  const inputProblems = checkInputs(chain, opts.inputs, validator);
  if (inputProblems.length > 0) return { status: 'failed', error: inputProblems.join('; ') };

  const countTokens = opts.countTokens ?? (await loadTokenCounter());
  const plan = prepared.plan as Map<string, PlannedStep>;
  const restored = restoreFromEvents(opts.resume?.events ?? opts.fork?.events ?? []);
  const { untrustedInputs, readers, preds: predsOf } = prepared.schedule as Schedule;
  // Which steps may be decidable now: every step at first, then the readers of each step that
  // settles. The scheduler looks only at these, in plan order, not at the whole chain after every
  // step (which made a long sequential chain quadratic).
  const candidates = new ReadyQueue((prepared.schedule as Schedule).ids, (prepared.schedule as Schedule).index);
  for (const id of plan.keys()) candidates.add(id);
  let settledCount = 0;
  const state = new StepStates(plan.keys(), (id) => {
    settledCount++;
    for (const reader of readers.get(id) ?? []) candidates.add(reader);
  });
  const outputs = new Map<string, unknown>();
  const tainted = new Set<string>();
  const chosen = new Map<string, Set<string>>(restored.chosen);
  const taint = (planned: PlannedStep) => bindingsOf(planned).some(({ parsed: { root, name } }) => (root === 'inputs' && untrustedInputs.has(name)) || (root === 'steps' && tainted.has(name)));
  // Restore in dependency order so taint flows through restored steps as it did the first time.
  for (const id of restored.finished.size > 0 ? prepared.order as string[] : []) {
    const done = restored.finished.get(id);
    const planned = plan.get(id) as PlannedStep;
    if (done?.status === 'succeeded') {
      state.set(id, 'done');
      outputs.set(id, done.output);
      if (taint(planned)) tainted.add(id);
    } else if (done?.status === 'skipped') state.set(id, 'skipped');
  }
  // A fork's trace carries the reused steps too (marked reused), so it replays on its own.
  for (const e of opts.fork?.events ?? []) deps.emit(e.type === 'step.finished' ? { ...e, at: deps.now(), reused: true } : { ...e, at: deps.now() });
  if (opts.resume || opts.fork) deps.emit({ type: 'run.resumed', at: deps.now(), restoredSteps: [...restored.finished.keys()], restoredUnits: [...restored.units.values()].reduce((n, m) => n + m.size, 0) });
  const transport = { ...defaultTransportPolicy, ...opts.transport };
  const callDeps = {
    provider: opts.provider, fetch: opts.fetch ?? globalThis.fetch.bind(globalThis), signal: deps.signal, policy: transport, now: deps.now, emit: deps.emit,
    budget: deps.budget, prices: opts.model.prices,
  };
  // Per-profile call deps, made once: a step naming a profile calls that endpoint.
  const endpoints = new Map(Object.entries(opts.profiles ?? {}).map(([name, p]) => [name, { deps: { ...callDeps, provider: p.provider, prices: p.model.prices }, model: p.model }]));
  const runEndpoint = { deps: callDeps, model: opts.model };
  const endpointFor = (config: unknown) => {
    const name = endpoints.size > 0 ? namedProfile(config) : undefined;
    return (name ? endpoints.get(name) : undefined) ?? runEndpoint;
  };
  // Set from inside the step callbacks; a holder object, so TypeScript does not narrow them to
  // their initial null at the end of the loop.
  // `terminal` is an ending that stops the run (abstain, escalate); an output does not: every
  // reachable step runs, and each output step that ran is one of the run's outputs.
  const ended: { halt: { status: RunStatus; error: string } | null; terminal: { stepId: string; output: unknown; ending: 'abstain' | 'escalate' } | null } = { halt: null, terminal: null };
  const returned = new Map<string, unknown>();

  const scope = { inputs: opts.inputs, outputs };
  /**
   * Starts a step: its `step.started` event, its bound values (and their taint), and the context
   * it runs with; or, when a value it needs is missing, the failure it ends with. Not async: the
   * step's own promise is awaited once, in settle (each async layer per step was a promise and a
   * resumption more on every step of every run).
   */
  const begin = (planned: PlannedStep, started: number): { ctx: StepRunContext<unknown> } | { missing: StepOutcome } => {
    const { step, def, config } = planned;
    deps.emit({ type: 'step.started', at: started, stepId: step.id });
    const values: Record<string, unknown> = {};
    const untrusted = new Set<string>();
    const missing: string[] = [];
    const optional = def.runsWithout?.(config) ?? [];
    for (const { name, ref, parsed } of bindingsOf(planned)) {
      const value = resolveParsedRef(parsed, scope);
      if (value === undefined && !optional.includes(name)) missing.push(`${name} (${ref})`);
      values[name] = value;
      const { root, name: source } = parsed;
      if ((root === 'inputs' && untrustedInputs.has(source)) || (root === 'steps' && tainted.has(source))) untrusted.add(name);
    }
    if (missing.length > 0) {
      return { missing: { status: 'failed', failure: { code: 'missing_input', message: `no value for ${missing.join(', ')}` } } };
    }
    if (untrusted.size > 0) tainted.add(step.id);
    const endpoint = endpointFor(config);
    return {
      ctx: {
        runId: deps.runId, stepId: planned.id, fetch: callDeps.fetch, chain, step, config, values, untrusted, signal: deps.signal, model: endpoint.model,
        callModel: (request, onDelta) => callModelWithRetries(endpoint.deps, step.id, request, onDelta),
        onDelta: opts.onDelta ? (text, unit) => opts.onDelta?.(step.id, text, unit) : undefined,
        validate: (schema, value) => validator.validate(schema, value),
        emit: deps.emit, checkpoint: deps.flush, countTokens, now: deps.now, completedUnits: restored.units.get(step.id),
      },
    };
  };

  /** Runs a step and, when it fails, its fallback chain; returns the failure that stands, if any. */
  const settle = async (planned: PlannedStep, depth = 0): Promise<{ output?: unknown; failure?: StepFailure; onFail?: string }> => {
    const started = deps.now();
    const begun = begin(planned, started);
    const outcome = 'ctx' in begun ? await planned.def.run(begun.ctx) : begun.missing;
    const latencyMs = deps.now() - started;
    const id = planned.step.id;
    if (outcome.status === 'succeeded') {
      deps.emit({ type: 'step.finished', at: deps.now(), stepId: id, status: 'succeeded', output: outcome.output, latencyMs });
      if (outcome.chosen) chosen.set(id, new Set(outcome.chosen));
      if (outcome.terminal === 'output') returned.set(id, outcome.output);
      else if (outcome.terminal && !ended.terminal) ended.terminal = { stepId: id, output: outcome.output, ending: outcome.terminal };
      return { output: outcome.output };
    }
    const onFail = planned.def.onFail?.(planned.config) ?? 'abort';
    const fallback = fallbackTarget(onFail);
    const target = fallback ? plan.get(fallback) : undefined;
    deps.emit({ type: 'step.finished', at: deps.now(), stepId: id, status: 'failed', failure: outcome.failure, latencyMs, fallbackTo: target ? fallback ?? undefined : undefined });
    // A spent budget ends the run: no fallback spends more.
    if (deps.budget.stopReason) return { failure: outcome.failure, onFail: 'abort' };
    if (target && depth < 8 && !deps.budget.beforeStep()) {
      await deps.flush();
      const result = await settle(target, depth + 1);
      if (!result.failure) {
        // The fallback's output stands in for the failed step, and is also its own.
        state.set(target.step.id, 'done');
        outputs.set(target.step.id, result.output);
      }
      return result;
    }
    return { failure: outcome.failure, onFail: fallback ? 'abort' : onFail };
  };

  const running = new Map<string, Promise<void>>();
  const limit = Math.max(1, opts.concurrency ?? 4);
  const isSettled = (id: string) => SETTLED.has(state.get(id) ?? 'pending');

  const launch = (planned: PlannedStep) => {
    const id = planned.step.id;
    state.set(id, 'running');
    // One async function per step, not settle().then(async …).finally(…): three promises fewer.
    const task = (async () => {
      try {
        const result = await settle(planned);
        // A spent budget ends the run even when the step got by (a map whose later units were refused).
        if (deps.budget.stopReason) ended.halt ??= { status: 'failed', error: budgetError(deps.budget.stopReason) };
        if (result.failure) {
          state.set(id, 'failed');
          ended.halt ??= { status: HALT_STATUS[result.onFail ?? 'abort'] ?? 'failed', error: `Step "${planned.step.name || id}" failed (${result.failure.code}): ${result.failure.message}` };
        } else {
          state.set(id, 'done');
          outputs.set(id, result.output);
        }
        // Durable before anything downstream starts.
        await deps.flush();
      } finally {
        running.delete(id);
      }
    })();
    running.set(id, task);
  };

  for (;;) {
    if (deps.signal.aborted) throw new ProviderError('aborted');
    // A skip can settle a step whose readers come earlier in this pass: pass again until a
    // pass settles nothing new (or the concurrency limit is reached).
    for (let again = true; again && !ended.halt && !ended.terminal; ) {
      const settledBefore = settledCount;
      let full = false;
      // In plan order, as a scan of the whole plan would visit them (a step a skip made
      // decidable during the pass included).
      for (let id = candidates.peek(); id !== undefined; id = candidates.peek()) {
        const planned = plan.get(id) as PlannedStep;
        if (state.get(id) !== 'pending') {
          candidates.pop();
          continue;
        }
        if (planned.standby) {
          candidates.pop();
          state.set(id, 'skipped');
          continue;
        }
        if (!(predsOf.get(id) as string[]).every(isSettled)) {
          candidates.pop(); // back when its last predecessor settles
          continue;
        }
        const blocked = planned.dataPreds.some((p) => state.get(p) !== 'done');
        const notChosen = planned.routePreds.length > 0 && !planned.routePreds.some((r) => chosen.get(r)?.has(id));
        if (blocked || notChosen) {
          candidates.pop();
          state.set(id, 'skipped');
          deps.emit({ type: 'step.finished', at: deps.now(), stepId: id, status: 'skipped', latencyMs: 0 });
          continue;
        }
        if (running.size >= limit) {
          full = true;
          break;
        }
        const refused = deps.budget.beforeStep();
        if (refused) {
          ended.halt ??= { status: 'failed', error: budgetError(refused) };
          break;
        }
        candidates.pop();
        launch(planned);
      }
      again = !full && settledCount !== settledBefore;
    }
    if (running.size === 0) {
      // Skips can unlock further skips; loop until nothing pending can be decided.
      const pendingDecidable = !ended.halt && !ended.terminal && [...candidates.values()].some((id) => {
        return state.get(id) === 'pending' && (predsOf.get(id) as string[]).every(isSettled);
      });
      if (pendingDecidable) continue;
      break;
    }
    await Promise.race(running.values());
  }

  if (deps.signal.aborted) throw new ProviderError('aborted');
  const h = ended.halt;
  if (h) return { status: h.status, error: h.error };
  const t = ended.terminal;
  if (t) {
    return { status: t.ending === 'abstain' ? 'abstained' : 'escalated', output: t.output, terminalStep: t.stepId };
  }
  // An output is a terminal that sends nothing out; a webhook's result counts only where no output step ran.
  return runEnd(prepared.ends ?? [], state, outputs, returned);
}

/**
 * How a run that was not halted ends. Succeeded is earned: no reachable step was left unrun, and
 * every output step that ran returned a value. One output step: the run's output is its value; several:
 * one object with each output's value under its step id. A chain without an output step returns
 * what its last step (in chain order) that ran returned, as before.
 */
export function runEnd(steps: readonly { id: string; name: string; output: boolean }[], state: ReadonlyMap<string, StepState>, outputs: ReadonlyMap<string, unknown>, returned: ReadonlyMap<string, unknown>): { status: RunStatus; output?: unknown; error?: string; terminalStep?: string } {
  const label = (s: { id: string; name: string }) => (s.name && s.name !== s.id ? `"${s.name}" (${s.id})` : `"${s.id}"`);
  const unrun = steps.filter((s) => state.get(s.id) === 'pending' || state.get(s.id) === 'running');
  if (unrun.length > 0) return { status: 'failed', error: `${unrun.length} reachable step${unrun.length === 1 ? ' was' : 's were'} left unrun: ${unrun.slice(0, 5).map(label).join(', ')}${unrun.length > 5 ? ', …' : ''}` };
  // Output steps first; a chain whose only terminal is a webhook returns the webhook's result.
  const outputSteps = steps.filter((s) => s.output && returned.has(s.id));
  const ran = outputSteps.length > 0 ? outputSteps : steps.filter((s) => returned.has(s.id)).slice(0, 1);
  const empty = ran.filter((s) => returned.get(s.id) === undefined);
  if (empty.length > 0) return { status: 'failed', error: `The output ${empty.map(label).join(', ')} returned nothing: what it reads held no value`, terminalStep: empty[0]?.id };
  if (ran.length === 1) {
    const only = ran[0] as { id: string };
    return { status: 'succeeded', output: returned.get(only.id), terminalStep: only.id };
  }
  if (ran.length > 1) return { status: 'succeeded', output: Object.fromEntries(ran.map((s) => [s.id, returned.get(s.id)])), terminalStep: ran[0]?.id };
  const last = steps.map((s) => s.id).filter((id) => state.get(id) === 'done').pop();
  return { status: 'succeeded', output: last ? outputs.get(last) : undefined, terminalStep: last };
}
