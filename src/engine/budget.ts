import { runBudgetSchema, type RunBudget } from '../chain/schema.ts';
import { ProviderError } from '../providers/errors.ts';
import type { TokenUsage } from '../providers/types.ts';

export type { RunBudget };

/** The tighter of two budgets, limit by limit (a chain's own and the caller's). */
export function tighterBudget(a: RunBudget | undefined, b: RunBudget | undefined): RunBudget {
  // Most runs have neither: no walk over the budget schema's keys.
  if (!a && !b) return {};
  const out: RunBudget = {};
  for (const key of Object.keys(runBudgetSchema.shape) as (keyof RunBudget)[]) {
    const values = [a?.[key], b?.[key]].filter((v): v is number => typeof v === 'number');
    if (values.length) out[key] = Math.min(...values);
  }
  return out;
}

export interface BudgetSpend {
  steps: number;
  requests: number;
  tokens: number;
  costUsd: number;
}

/**
 * Keeps a run inside its budget. Every step and every model request asks first; a request is
 * let through only while the spend so far, plus what the requests already in flight may still
 * add (each priced as the largest request seen), stays under the limit — otherwise it waits for
 * those to finish and asks again. So the limit is overshot by at most one request in flight.
 */
export class BudgetGuard {
  readonly spent: BudgetSpend = { steps: 0, requests: 0, tokens: 0, costUsd: 0 };
  private inFlight = 0;
  private largest = { tokens: 0, costUsd: 0 };
  private waiters: (() => void)[] = [];
  private readonly startedAt: number;
  /** Why the run stopped spending, once it has (the run then ends failed with this reason). */
  stopReason: string | null = null;

  constructor(
    readonly budget: RunBudget,
    private readonly now: () => number,
  ) {
    this.startedAt = now();
  }

  get limited(): boolean {
    return Object.keys(this.budget).length > 0;
  }

  /** Why the run must stop spending now, or null. */
  reached(): string | null {
    const b = this.budget;
    const s = this.spent;
    if (b.maxTimeMs !== undefined && this.now() - this.startedAt >= b.maxTimeMs) return `time budget of ${b.maxTimeMs} ms reached`;
    if (b.maxTokens !== undefined && s.tokens >= b.maxTokens) return `token budget of ${b.maxTokens} reached (${s.tokens} used)`;
    if (b.maxCostUsd !== undefined && s.costUsd >= b.maxCostUsd) return `spend budget of $${b.maxCostUsd} reached ($${s.costUsd.toFixed(6)} spent)`;
    return null;
  }

  /** Before a step starts: the reason it may not, or null (and the step is counted). */
  beforeStep(): string | null {
    const reason = this.reached() ?? (this.budget.maxSteps !== undefined && this.spent.steps >= this.budget.maxSteps ? `step budget of ${this.budget.maxSteps} reached` : null);
    if (reason) return this.stop(reason);
    this.spent.steps++;
    return null;
  }

  /** Ends spending for good, keeping the first reason. */
  stop(reason: string): string {
    this.stopReason ??= reason;
    return this.stopReason;
  }

  /**
   * Before a model request, without waiting: true when it may go now (and it is counted), false
   * when it must wait for requests in flight (then `beforeRequest`); throws as `beforeRequest` does.
   * The usual answer costs the caller no await (a promise and a microtask turn per call).
   */
  admitNow(signal?: AbortSignal): boolean {
    if (signal?.aborted) throw new ProviderError('aborted');
    const reason = this.reached() ?? this.requestsReached();
    if (reason) throw new ProviderError('budget', this.stop(reason));
    if (this.inFlight !== 0 && !this.roomFor(this.inFlight + 1)) return false;
    this.inFlight++;
    this.spent.requests++;
    return true;
  }

  /** Before a model request: resolves when it may go, throws a `budget` error when it may not. */
  async beforeRequest(signal?: AbortSignal): Promise<void> {
    for (;;) {
      if (signal?.aborted) throw new ProviderError('aborted');
      const reason = this.reached() ?? this.requestsReached();
      if (reason) throw new ProviderError('budget', this.stop(reason));
      if (this.inFlight === 0 || this.roomFor(this.inFlight + 1)) break;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
    this.inFlight++;
    this.spent.requests++;
  }

  /**
   * After a model request, with what the endpoint reported it used (nothing when it failed)
   * and the prices of the profile it went to (per million tokens).
   */
  afterRequest(usage: TokenUsage | undefined, prices?: { input: number; output: number }): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    if (usage) {
      const tokens = usage.inputTokens + usage.outputTokens;
      const costUsd = prices ? (usage.inputTokens * prices.input + usage.outputTokens * prices.output) / 1_000_000 : 0;
      this.spent.tokens += tokens;
      this.spent.costUsd += costUsd;
      // Replaced only when it grows, and the waiters only when there are any: this runs after
      // every model call, and most runs have no budget and nobody waiting.
      if (tokens > this.largest.tokens || costUsd > this.largest.costUsd) {
        this.largest = { tokens: Math.max(this.largest.tokens, tokens), costUsd: Math.max(this.largest.costUsd, costUsd) };
      }
    }
    if (this.waiters.length === 0) return;
    const waiting = this.waiters;
    this.waiters = [];
    for (const wake of waiting) wake();
  }

  /** Usage restored from an interrupted run's trace counts against the same budget. */
  restore(spend: Partial<BudgetSpend>): void {
    this.spent.steps += spend.steps ?? 0;
    this.spent.requests += spend.requests ?? 0;
    this.spent.tokens += spend.tokens ?? 0;
    this.spent.costUsd += spend.costUsd ?? 0;
  }

  /** Milliseconds until the time budget ends, if there is one. */
  timeLeftMs(): number | null {
    return this.budget.maxTimeMs === undefined ? null : Math.max(0, this.startedAt + this.budget.maxTimeMs - this.now());
  }

  private requestsReached(): string | null {
    const max = this.budget.maxRequests;
    return max !== undefined && this.spent.requests >= max ? `request budget of ${max} reached` : null;
  }

  private roomFor(requests: number): boolean {
    const b = this.budget;
    // Until one request has come back nobody knows what a request costs: one at a time.
    const unknown = this.largest.tokens === 0 && this.largest.costUsd === 0;
    if ((b.maxTokens !== undefined || b.maxCostUsd !== undefined) && unknown) return false;
    if (b.maxTokens !== undefined && this.spent.tokens + requests * this.largest.tokens > b.maxTokens) return false;
    if (b.maxCostUsd !== undefined && this.spent.costUsd + requests * this.largest.costUsd > b.maxCostUsd) return false;
    return true;
  }
}
