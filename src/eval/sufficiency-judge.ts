import type { Chain } from '../chain/schema.ts';
import { runChain, type RunModelSettings } from '../engine/run.ts';
import type { TokenCounter } from '../providers/tokenizer.ts';
import type { ModelProvider } from '../providers/types.ts';
import type { StepRegistry } from '../steps/registry.ts';
import type { RunMeta } from '../trace/events.ts';
import { createMemoryRunRepository } from '../trace/repository.ts';

/** What the judge is shown of one boundary. */
export interface JudgedBoundary {
  question: string;
  /** What the consumer received (the producer's output), as text. */
  intermediate: string;
  /** The source text the producer read, for a judge chain that declares a `source` input. */
  source?: string;
}

export interface BoundaryJudgement {
  /** Null when the judge gave no usable verdict (its run failed, or it returned none): said in `reason`. */
  verdict: 'derivable' | 'not-derivable' | null;
  reason: string;
  /**
   * The words the judge quoted from the intermediate, and whether they are really there: a
   * reason that quotes text the consumer never received is a judge making things up.
   */
  quote?: { text: string; found: boolean };
}

export interface JudgeUsage {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd?: number;
}

export interface JudgeContext {
  provider: ModelProvider;
  model: RunModelSettings;
  registry?: StepRegistry;
  signal?: AbortSignal;
  countTokens?: TokenCounter;
  fetch?: typeof fetch;
}

/** An intermediate as the judge reads it: text as is, anything else as indented JSON. */
export const intermediateText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value ?? null, null, 2));

const squash = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();

/** The quoted words of a reason: the `quote` field, or the first "…" / “…” span of 8 characters or more in the reason. */
function quoteOf(out: Record<string, unknown>, reason: string): string | undefined {
  if (typeof out.quote === 'string' && out.quote.trim()) return out.quote;
  return /[“"]([^”"]{8,})[”"]/.exec(reason)?.[1];
}

/**
 * The judge's verdict from what its chain returned: `true`/`false` (derivable or not), or an
 * object with `derivable` (boolean), or `verdict` ("derivable" / "not derivable"), with `reason`
 * and optionally `quote`. Anything else is no verdict, said as such: never read as derivable.
 */
export function readJudgement(meta: Pick<RunMeta, 'status' | 'output' | 'error'>, intermediate: string): BoundaryJudgement {
  if (meta.status !== 'succeeded') return { verdict: null, reason: `the judge run ${meta.status}${meta.error ? `: ${meta.error}` : ''}` };
  const out = meta.output;
  if (typeof out === 'boolean') return { verdict: out ? 'derivable' : 'not-derivable', reason: 'the judge gave no reason' };
  if (out === null || typeof out !== 'object' || Array.isArray(out)) return { verdict: null, reason: 'the judge returned no verdict (true/false, or an object with "derivable")' };
  const o = out as Record<string, unknown>;
  const word = typeof o.verdict === 'string' ? o.verdict.toLowerCase().replace(/[\s_]+/g, '-') : undefined;
  const verdict = typeof o.derivable === 'boolean' ? (o.derivable ? 'derivable' : 'not-derivable') : word === 'derivable' || word === 'not-derivable' ? word : null;
  if (!verdict) return { verdict: null, reason: 'the judge returned no verdict (true/false, or an object with "derivable")' };
  const reason = typeof o.reason === 'string' && o.reason.trim() ? o.reason.trim().slice(0, 600) : 'the judge gave no reason';
  const quote = quoteOf(o, reason);
  return { verdict, reason, ...(quote ? { quote: { text: quote.slice(0, 300), found: squash(intermediate).includes(squash(quote)) } } : {}) };
}

/**
 * Runs the judge chain on one boundary with the same engine as any run: inputs `question`,
 * `intermediate` and (when the chain declares it) `source`. The judge's run is not stored with
 * the person's runs, and its calls and tokens come back apart so they are never counted as the
 * pipeline's.
 *
 * @example
 * const { judgement, usage } = await judgeBoundary(judgeChain, { question, intermediate }, { provider, model });
 */
export async function judgeBoundary(chain: Chain, boundary: JudgedBoundary, ctx: JudgeContext): Promise<{ judgement: BoundaryJudgement; usage: JudgeUsage }> {
  const values: Record<string, string | undefined> = { question: boundary.question, intermediate: boundary.intermediate, source: boundary.source };
  const inputs = Object.fromEntries(chain.inputs.filter((i) => values[i.name] !== undefined).map((i) => [i.name, values[i.name]]));
  const repo = createMemoryRunRepository();
  const meta = await runChain({
    chain, inputs, provider: ctx.provider, model: ctx.model, repo,
    ...(ctx.registry ? { registry: ctx.registry } : {}), ...(ctx.signal ? { signal: ctx.signal } : {}),
    ...(ctx.countTokens ? { countTokens: ctx.countTokens } : {}), ...(ctx.fetch ? { fetch: ctx.fetch } : {}),
  });
  const calls = (await repo.getEvents(meta.id)).filter((e) => e.type === 'step.attempt').length;
  const usage: JudgeUsage = { calls, inputTokens: meta.usage?.inputTokens ?? 0, outputTokens: meta.usage?.outputTokens ?? 0, ...(meta.usage?.costUsd ? { costUsd: meta.usage.costUsd } : {}) };
  return { judgement: readJudgement(meta, boundary.intermediate), usage };
}

/** Usage summed over judge calls. */
export function addUsage(a: JudgeUsage, b: JudgeUsage): JudgeUsage {
  const cost = (a.costUsd ?? 0) + (b.costUsd ?? 0);
  return { calls: a.calls + b.calls, inputTokens: a.inputTokens + b.inputTokens, outputTokens: a.outputTokens + b.outputTokens, ...(cost ? { costUsd: cost } : {}) };
}
