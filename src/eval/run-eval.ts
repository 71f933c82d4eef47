import type { Chain } from '../chain/schema.ts';
import { planFork } from '../engine/fork.ts';
import { runChain, type RunModelSettings } from '../engine/run.ts';
import type { TokenCounter } from '../providers/tokenizer.ts';
import type { ModelProvider } from '../providers/types.ts';
import { getPath } from '../chain/refs.ts';
import type { RunMeta, TraceEvent } from '../trace/events.ts';
import { createMemoryRunRepository } from '../trace/repository.ts';
import type { RunRepository } from '../trace/repository.ts';
import { boundarySufficiency } from '../inspect/boundary.ts';
import { stageRecall } from '../inspect/stage-recall.ts';
import { buildRunView } from '../trace/replay.ts';
import { stepRegistry } from '../steps/index.ts';
import type { StepRegistry } from '../steps/registry.ts';
import type { Dataset, DatasetItem } from './dataset.ts';
import type { ScorerSpec } from './scorer-spec.ts';
import { scoreItem, scorerName, type RunOutcome, type ScoreResult } from './scorers.ts';
import type { ItemBoundary, ItemResult, StepOutcome } from './item-result.ts';

/**
 * A batch: every variant over every item of a dataset, through a bounded pool, each item an
 * ordinary stored run. Results go to `onResult` as each run finishes (the caller makes them
 * durable: a results file, IndexedDB), and `done` lists what an earlier, interrupted batch
 * already finished, so a resumed batch never re-runs (or re-pays for) a finished item.
 */
export type VariantKind = 'chain' | 'baseline' | 'identity' | 'ablation';

export interface EvalVariant {
  name: string;
  kind: VariantKind;
  chain: Chain;
  /** The step a control is about (identity, ablation). */
  step?: string;
  /** What differs from the chain it controls, in words, for the table. */
  differs?: string;
}

export type { ItemBoundary, ItemResult, StepOutcome } from './item-result.ts';

export interface EvalProgress {
  done: number;
  total: number;
  failed: number;
  /** Estimated milliseconds left, from the pace so far (null until something finished). */
  etaMs: number | null;
}

export interface EvalOptions {
  variants: readonly EvalVariant[];
  dataset: Dataset;
  /** Scorers from the command line; else the dataset's; else each item's expected keys choose. */
  scorers?: readonly ScorerSpec[];
  provider: ModelProvider;
  model: RunModelSettings;
  repo: RunRepository;
  concurrency?: number;
  signal?: AbortSignal;
  /** `resultKey(variant, item)` of results already stored. */
  done?: ReadonlySet<string>;
  /** Stores one result (and may drop the run from `repo` once it is written elsewhere). */
  onResult(result: ItemResult, run: { meta: RunMeta; events: TraceEvent[] }): Promise<void>;
  onProgress?(progress: EvalProgress): void;
  /** A stable run id per variant and item: a resumed batch writes the same files. */
  runIdFor?(variant: EvalVariant, item: DatasetItem): string;
  /**
   * The item as `variant` runs it (each variant may complete missing inputs from its own input
   * files), so variants with different inputs still share one pool. Called once per job, just
   * before it runs; the item as stored when absent.
   */
  itemFor?(variant: EvalVariant, item: DatasetItem): DatasetItem;
  /**
   * Awaited before each item starts (never inside one, so no latency, timeout or result is
   * touched): the tab's eval worker holds new items back here while the person pans the
   * canvas, so a CPU-bound batch gives the frames its core. Should settle promptly on cancel.
   */
  beforeItem?(signal?: AbortSignal): Promise<void>;
  countTokens?: TokenCounter;
  /** The fetch the runs' calls and webhooks use (the CLI's node:http one); the global fetch when absent. */
  fetch?: typeof fetch;
  now?: () => number;
  registry?: StepRegistry;
  /** Webhook origins the runs may post to (none by default: a chain with a webhook fails). */
  allowEgress?: readonly string[];
  /** The chains `judge` scorers name, by the name the scorer gives (a chain id or a file). */
  judges?: ReadonlyMap<string, Chain>;
  /**
   * A frozen boundary: each item's earlier run (from an eval already made), whose steps before
   * `stage` are restored as they finished instead of run again, so the stage (and what follows)
   * is measured against exactly what it received then, with no upstream call. An item with no
   * earlier run runs whole.
   */
  frozen?: { stage: string; runFor(variant: EvalVariant, item: DatasetItem): Promise<{ meta: RunMeta; events: readonly TraceEvent[] } | null> };
}

export const resultKey = (variant: string, itemId: string) => `${variant}\u0000${itemId}`;

/** What a run did, read from its events: the terminal, the branches, per-step attempts. */
export function outcomeOf(meta: RunMeta, events: readonly TraceEvent[]): { outcome: RunOutcome; calls: number; steps: StepOutcome[] } {
  const steps = new Map<string, StepOutcome>();
  const step = (id: string) => {
    let s = steps.get(id);
    if (!s) steps.set(id, (s = { stepId: id, status: 'running', attempts: 0, invalid: 0, latencyMs: 0 }));
    return s;
  };
  let calls = 0;
  let terminalStep: string | undefined;
  const routes: string[] = [];
  for (const e of events) {
    if (e.type === 'step.attempt') {
      calls++;
      const s = step(e.stepId);
      s.attempts++;
      if (e.record.errors.length > 0 || e.record.failure === 'invalid_json' || e.record.failure === 'schema_violation') s.invalid++;
    } else if (e.type === 'step.finished') {
      const s = step(e.stepId);
      s.status = e.status;
      s.latencyMs = e.latencyMs;
    } else if (e.type === 'step.route') routes.push(...e.chosen);
    else if (e.type === 'run.finished') terminalStep = e.terminalStep;
  }
  // An abstain or escalate terminal finishes as a step that worked; what it did is the run's end.
  const end = terminalStep ? steps.get(terminalStep) : undefined;
  if (end?.status === 'succeeded' && (meta.status === 'abstained' || meta.status === 'escalated')) end.status = meta.status;
  return { outcome: { status: meta.status, output: meta.output, ...(terminalStep ? { terminalStep } : {}), routes }, calls, steps: [...steps.values()] };
}

/** What one item run needs: the parts of EvalOptions a worker on another machine has too. */
export type EvalItemContext = Pick<EvalOptions, 'provider' | 'model' | 'repo' | 'signal' | 'countTokens' | 'fetch' | 'now' | 'registry' | 'allowEgress' | 'judges' | 'frozen'>;

/**
 * One variant over one item: the run (resumed from `repo` when an earlier attempt left it
 * unfinished), its outcome, its scores and its boundaries. The in-process pool and the BullMQ
 * worker both call this, so a result reads the same wherever it ran. Null when the batch's
 * cancel cut the run short (not a result: it runs again when the batch resumes).
 *
 * @example
 * const ran = await runEvalItem({ provider, model, repo }, variant, item, runId, scorers);
 */
export async function runEvalItem(
  ctx: EvalItemContext, variant: EvalVariant, item: DatasetItem, runId: string | undefined, scorers: readonly ScorerSpec[] | undefined,
): Promise<{ result: ItemResult; meta: RunMeta; events: TraceEvent[] } | null> {
  const now = ctx.now ?? Date.now;
  const t0 = now();
  // A run a cancelled or crashed batch left unfinished continues where it stopped: its
  // finished steps are restored from its events, not called (or paid for) again.
  const earlier = runId ? await ctx.repo.getRun(runId) : undefined;
  const frozen = !earlier && ctx.frozen ? await ctx.frozen.runFor(variant, item) : null;
  const earlierEvents = earlier ? await ctx.repo.getEvents(runId as string) : [];
  const resume = earlier
    ? { resume: { events: earlierEvents } }
    : frozen && ctx.frozen ? { fork: frozenFork(variant.chain, frozen, ctx.frozen.stage, ctx.registry ?? stepRegistry) } : {};
  // The run's events as they are recorded (the objects the repository stores, which nothing
  // changes afterwards), after the earlier attempt's: reading them back would copy every event.
  const events: TraceEvent[] = [...earlierEvents];
  const meta = await runChain({
    chain: variant.chain, inputs: item.inputs, provider: ctx.provider, model: ctx.model, repo: ctx.repo, ...resume, onEvent: (e) => void events.push(e),
    ...(runId ? { runId } : {}), ...(ctx.registry ? { registry: ctx.registry } : {}), ...(ctx.signal ? { signal: ctx.signal } : {}), ...(ctx.countTokens ? { countTokens: ctx.countTokens } : {}), ...(ctx.fetch ? { fetch: ctx.fetch } : {}),
    ...(ctx.allowEgress ? { allowEgress: ctx.allowEgress, egressHint: 'name its origin with --allow-webhook' } : {}), now,
  });
  if (ctx.signal?.aborted && (meta.status === 'cancelled' || meta.status === 'interrupted')) return null;
  const { outcome, calls, steps } = outcomeOf(meta, events);
  const scored = scoreItem(item, scorers, outcome);
  const judged = await judgeItem(ctx, item, scorers, outcome.status === 'succeeded' ? outcome.output : undefined, now);
  if (judged) {
    scored.scores.push(...judged.scores);
    scored.pass = scored.pass && judged.scores.every((x) => x.pass);
  }
  // Gold for a boundary: the item's facts for that boundary, else the facts the answer needs.
  const gold = item.labels?.boundaries ?? item.expected.facts;
  const view = buildRunView(meta, events, ctx.registry ?? stepRegistry);
  const sufficiency = boundarySufficiency(meta, view.boundaries, gold);
  const goldIds = [...(item.labels?.sections ?? []), ...(item.labels?.chunks ?? [])];
  const boundaries = sufficiency.map((b, i): ItemBoundary => {
    const recall = goldIds.length ? stageRecall(view.boundaries[i] as (typeof view.boundaries)[number], goldIds) : null;
    return {
      id: b.boundaryId, producer: b.producer, consumer: b.consumer, estimate: b.estimate.verdict, basis: b.estimate.basis,
      ...(b.label ? { label: b.label.verdict } : {}), ...(recall ? { recall } : {}),
    };
  });
  const result: ItemResult = {
    variant: variant.name, itemId: item.id, runId: meta.id, status: meta.status, pass: scored.pass,
    abstained: meta.status === 'abstained' || meta.status === 'escalated', scores: scored.scores,
    latencyMs: (meta.finishedAt ?? now()) - (meta.startedAt ?? t0),
    inputTokens: meta.usage?.inputTokens ?? 0, outputTokens: meta.usage?.outputTokens ?? 0, calls,
    ...(meta.usage?.costUsd !== undefined ? { costUsd: meta.usage.costUsd } : {}),
    ...(meta.error ? { error: meta.error } : {}), steps, boundaries, ...(judged ? { judge: judged.usage } : {}),
    ...(item.expected.abstain !== undefined ? { expectedAbstain: item.expected.abstain } : {}),
  };
  return { result, meta, events };
}

/**
 * The judge scorers: each runs its chain (same engine, provider and model as the batch) with
 * the output under judgement, the item's expected values and its inputs, and reads a verdict
 * from what the chain returns: `true`/`false`, or an object's `pass` (or `correct`, `verdict`)
 * with its `reason`. A judge that fails or returns no verdict fails the item, saying so. Its
 * runs are not the item's: they are kept out of the stored runs, and their calls and tokens are
 * counted apart.
 */
async function judgeItem(opts: EvalItemContext, item: DatasetItem, scorers: readonly ScorerSpec[] | undefined, output: unknown, now: () => number) {
  const judges = (scorers?.length ? scorers : []).filter((s): s is Extract<ScorerSpec, { type: 'judge' }> => s.type === 'judge');
  if (judges.length === 0 || item.expected.abstain === true) return null;
  const usage = { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 };
  const scores: ScoreResult[] = [];
  for (const spec of judges) {
    const scorer = scorerName(spec);
    const chain = opts.judges?.get(spec.chain);
    if (!chain) {
      scores.push({ scorer, pass: false, detail: `no judge chain "${spec.chain}" was given` });
      continue;
    }
    const judged = spec.path ? getPath(output, spec.path.split('.')) : output;
    const values: Record<string, unknown> = { ...item.inputs, output: typeof judged === 'string' ? judged : JSON.stringify(judged ?? null, null, 2), expected: JSON.stringify(item.expected, null, 2) };
    const inputs = Object.fromEntries(chain.inputs.filter((i) => Object.hasOwn(values, i.name)).map((i) => [i.name, values[i.name]]));
    const repo = createMemoryRunRepository();
    const meta = await runChain({ chain, inputs, provider: opts.provider, model: opts.model, repo, ...(opts.registry ? { registry: opts.registry } : {}), ...(opts.signal ? { signal: opts.signal } : {}), ...(opts.countTokens ? { countTokens: opts.countTokens } : {}), ...(opts.fetch ? { fetch: opts.fetch } : {}), now });
    usage.calls += (await repo.getEvents(meta.id)).filter((e) => e.type === 'step.attempt').length;
    usage.inputTokens += meta.usage?.inputTokens ?? 0;
    usage.outputTokens += meta.usage?.outputTokens ?? 0;
    usage.costUsd += meta.usage?.costUsd ?? 0;
    scores.push({ scorer, ...verdictOf(meta) });
  }
  return { scores, usage: usage.costUsd ? usage : { calls: usage.calls, inputTokens: usage.inputTokens, outputTokens: usage.outputTokens } };
}

function verdictOf(meta: RunMeta): { pass: boolean; detail: string } {
  if (meta.status !== 'succeeded') return { pass: false, detail: `the judge run ${meta.status}${meta.error ? `: ${meta.error}` : ''}` };
  const out = meta.output;
  if (typeof out === 'boolean') return { pass: out, detail: out ? 'the judge says right' : 'the judge says wrong' };
  if (out !== null && typeof out === 'object' && !Array.isArray(out)) {
    const o = out as Record<string, unknown>;
    const verdict = [o.pass, o.correct, o.verdict].find((v) => typeof v === 'boolean') as boolean | undefined;
    const reason = [o.reason, o.explanation, o.why].find((v) => typeof v === 'string') as string | undefined;
    if (verdict !== undefined) return { pass: verdict, detail: `the judge says ${verdict ? 'right' : 'wrong'}${reason ? `: ${reason.slice(0, 300)}` : ''}` };
  }
  return { pass: false, detail: 'the judge returned no verdict (true/false, or an object with "pass")' };
}

/** The fork that restores an earlier run's steps before `stage` (planFork's rule), so nothing upstream is called. */
function frozenFork(chain: Chain, earlier: { meta: RunMeta; events: readonly TraceEvent[] }, stage: string, registry: StepRegistry) {
  const plan = planFork(chain, earlier.events, stage, undefined, registry);
  return { events: plan.restore, from: { runId: earlier.meta.id, stepId: stage, editedOutput: false, reused: plan.reused } };
}

/**
 * @example
 * await runEval({ variants: [{ name: 'select', kind: 'chain', chain }], dataset, provider, model,
 *   repo, concurrency: 8, onResult: async (r) => results.push(r) });
 */
export async function runEval(opts: EvalOptions): Promise<{ cancelled: boolean; ran: number; skipped: number }> {
  const now = opts.now ?? Date.now;
  const jobs: { variant: EvalVariant; item: DatasetItem }[] = [];
  let skipped = 0;
  for (const variant of opts.variants) {
    for (const item of opts.dataset.items) {
      if (opts.done?.has(resultKey(variant.name, item.id))) skipped++;
      else jobs.push({ variant, item });
    }
  }
  const total = jobs.length + skipped;
  let done = skipped;
  let failed = 0;
  let ran = 0;
  const started = now();
  const scorers = opts.scorers?.length ? opts.scorers : opts.dataset.scorers;
  let next = 0;

  const work = async () => {
    while (next < jobs.length && !opts.signal?.aborted) {
      if (opts.beforeItem) {
        await opts.beforeItem(opts.signal);
        // Another worker of the pool may have taken the last job, or the batch was cancelled, meanwhile.
        if (next >= jobs.length || opts.signal?.aborted) break;
      }
      const job = jobs[next++] as (typeof jobs)[number];
      const { variant } = job;
      const item = opts.itemFor?.(variant, job.item) ?? job.item;
      const itemRun = await runEvalItem(opts, variant, item, opts.runIdFor?.(variant, item), scorers);
      // A run the batch's cancel cut short is not a result: it runs again when the batch resumes.
      if (!itemRun) break;
      const { result, meta, events } = itemRun;
      await opts.onResult(result, { meta, events });
      ran++;
      done++;
      if (meta.status === 'failed') failed++;
      const elapsed = now() - started;
      opts.onProgress?.({ done, total, failed, etaMs: ran > 0 ? Math.round((elapsed / ran) * (total - done)) : null });
    }
  };
  const width = Math.max(1, Math.min(opts.concurrency ?? 4, jobs.length || 1));
  await Promise.all(Array.from({ length: width }, work));
  return { cancelled: opts.signal?.aborted === true && done < total, ran, skipped };
}
