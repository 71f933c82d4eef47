import { describe, expect, it } from 'vitest';
import type { Chain, StepDef } from '../chain/schema.ts';
import { parseChain } from '../chain/parse.ts';
import { ProviderError } from '../providers/errors.ts';
import type { ModelProvider } from '../providers/types.ts';
import { createMemoryRunRepository } from '../trace/repository.ts';
import { BudgetGuard, tighterBudget } from './budget.ts';
import { runChain } from './run.ts';
import { stepRegistry } from '../steps/index.ts';

const objectOut = { type: 'object', properties: { summary: { type: 'string' } }, required: ['summary'], additionalProperties: false };

function sequential(n: number, budget?: Chain['budget']): Chain {
  const steps: StepDef[] = [];
  for (let i = 0; i < n; i++) {
    steps.push({
      id: `s${i}`, kind: 'model', name: `Step ${i}`, position: { x: 0, y: 0 },
      config: { bindings: { text: i === 0 ? 'inputs.doc' : `steps.s${i - 1}.summary` }, prompt: 'Summarise {text}.', outputSchema: objectOut },
    });
  }
  steps.push({ id: 'final', kind: 'output', name: 'Final', position: { x: 0, y: 0 }, config: { bindings: { value: `steps.s${n - 1}.summary` } } });
  return { format: 'seamscope.chain', version: 1, id: 'seq', name: 'Seq', inputs: [{ name: 'doc', schema: { type: 'string' }, trust: 'trusted', required: true }], steps, ...(budget ? { budget } : {}) };
}

function fanOut(units: number, concurrency: number): Chain {
  return {
    format: 'seamscope.chain', version: 1, id: 'fan', name: 'Fan',
    inputs: [{ name: 'items', schema: { type: 'array', items: { type: 'string' } }, trust: 'trusted', required: true }],
    steps: [
      { id: 'each', kind: 'map', name: 'Each', position: { x: 0, y: 0 }, config: { bindings: { items: 'inputs.items' }, prompt: 'Summarise {unit}.', outputSchema: objectOut, concurrency } },
      { id: 'final', kind: 'output', name: 'Final', position: { x: 0, y: 0 }, config: { bindings: { value: 'steps.each' } } },
    ],
    budget: undefined,
  } as Chain;
}

/** A model that answers after `delayMs`, reports `tokens` used, and counts calls and overlap. */
function countingModel(opts: { delayMs?: number; tokens?: number } = {}) {
  let inFlight = 0;
  const stats = { calls: 0, maxInFlight: 0, aborted: 0 };
  const provider: ModelProvider = {
    kind: 'counting',
    async call(request, call) {
      stats.calls++;
      inFlight++;
      stats.maxInFlight = Math.max(stats.maxInFlight, inFlight);
      try {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, opts.delayMs ?? 1);
          call.signal?.addEventListener('abort', () => {
            clearTimeout(timer);
            stats.aborted++;
            reject(new ProviderError('aborted'));
          }, { once: true });
        });
        const text = JSON.stringify({ summary: 'short' });
        const half = (opts.tokens ?? 100) / 2;
        return { text, finishReason: 'stop', rawFinishReason: 'stop', usage: { inputTokens: half, outputTokens: half }, requestBody: {}, rawResponse: {}, status: 200, model: request.model };
      } finally {
        inFlight--;
      }
    },
  };
  return { provider, stats };
}

const model = { name: 'm', maxOutputTokens: 100, structuredOutput: true, prices: { input: 1, output: 1 } };

describe('run budgets', () => {
  it('a step budget stops the run before the next step, failed with the reason, nothing more sent', async () => {
    const { provider, stats } = countingModel();
    const repo = createMemoryRunRepository();
    const meta = await runChain({ chain: sequential(6), inputs: { doc: 'x' }, provider, model, repo, countTokens: (t) => t.length, budget: { maxSteps: 3 } });
    expect(meta.status).toBe('failed');
    expect(meta.error).toMatch(/Run budget reached: step budget of 3 reached/);
    expect(stats.calls).toBe(3);
    const started = (await repo.getEvents(meta.id)).filter((e) => e.type === 'step.started');
    expect(started).toHaveLength(3);
  });

  it('the chain file carries its own budget, and a caller can only tighten it', async () => {
    const { provider, stats } = countingModel();
    const chain = sequential(6, { maxRequests: 4 });
    expect(parseChain(chain, stepRegistry).ok).toBe(true);
    const loose = await runChain({ chain, inputs: { doc: 'x' }, provider, model, repo: createMemoryRunRepository(), countTokens: (t) => t.length, budget: { maxRequests: 100 } });
    expect(loose.error).toMatch(/request budget of 4 reached/);
    expect(stats.calls).toBe(4);
    expect(tighterBudget({ maxRequests: 4, maxTokens: 10 }, { maxRequests: 2, maxTimeMs: 5 })).toEqual({ maxRequests: 2, maxTokens: 10, maxTimeMs: 5 });
  });

  it('a budget in a chain file that is not a budget is refused when the chain is read', () => {
    const bad = { ...sequential(1), budget: { maxTokens: -1 } };
    const parsed = parseChain(bad, stepRegistry);
    expect(parsed.ok).toBe(false);
    const unknownKey = parseChain({ ...sequential(1), budget: { maxTokenz: 5 } }, stepRegistry);
    expect(unknownKey.ok).toBe(false);
  });

  for (const concurrency of [1, 4, 16]) {
    it(`tokens and spend are overshot by at most one request, with ${concurrency} units at once`, async () => {
      const { provider, stats } = countingModel({ delayMs: 3, tokens: 100 });
      const repo = createMemoryRunRepository();
      const meta = await runChain({
        chain: fanOut(40, concurrency), inputs: { items: Array.from({ length: 40 }, (_, i) => `item ${i}`) }, provider, model, repo,
        countTokens: (t) => t.length, concurrency: 4, budget: { maxTokens: 1050, maxCostUsd: 0.001 },
      });
      expect(meta.status).toBe('failed');
      expect(meta.error).toMatch(/Run budget reached: (token|spend) budget/);
      const used = (meta.usage?.inputTokens ?? 0) + (meta.usage?.outputTokens ?? 0);
      // The limit is 1,050 tokens (and $0.001 = 1,000 tokens at $1/M): one 100-token request past it at most.
      expect(used).toBeLessThanOrEqual(1000 + 100);
      expect(used).toBeGreaterThanOrEqual(900);
      expect(stats.calls).toBeLessThanOrEqual(11);
    });
  }

  it('a time budget cancels what is in flight at its deadline and ends failed, not cancelled', async () => {
    const { provider, stats } = countingModel({ delayMs: 10_000 });
    const started = Date.now();
    const meta = await runChain({ chain: sequential(3), inputs: { doc: 'x' }, provider, model, repo: createMemoryRunRepository(), countTokens: (t) => t.length, budget: { maxTimeMs: 150 } });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(meta.status).toBe('failed');
    expect(meta.error).toMatch(/time budget of 150 ms reached/);
    expect(stats.aborted).toBe(1);
  });

  it('a resumed run keeps the spend of the run it continues', async () => {
    const first = countingModel();
    const repo = createMemoryRunRepository();
    const ac = new AbortController();
    let seen = 0;
    const cut = await runChain({
      chain: sequential(6), inputs: { doc: 'x' }, provider: first.provider, model, repo, countTokens: (t) => t.length, signal: ac.signal,
      onEvent: (e) => { if (e.type === 'step.finished' && ++seen === 2) ac.abort(); },
    });
    expect(cut.status).toBe('cancelled');
    const events = await repo.getEvents(cut.id);
    const second = countingModel();
    const resumed = await runChain({
      chain: sequential(6), inputs: { doc: 'x' }, provider: second.provider, model, repo, countTokens: (t) => t.length,
      runId: cut.id, resume: { events }, budget: { maxRequests: 4 },
    });
    expect(resumed.error).toMatch(/request budget of 4 reached/);
    expect(first.stats.calls).toBe(2);
    expect(first.stats.calls + second.stats.calls).toBe(4);
  });
});

describe('BudgetGuard', () => {
  it('lets one request through at a time until it knows what a request costs', async () => {
    const guard = new BudgetGuard({ maxTokens: 250 }, () => 0);
    await guard.beforeRequest();
    let second = false;
    const waiting = guard.beforeRequest().then(() => (second = true));
    await Promise.resolve();
    expect(second).toBe(false);
    guard.afterRequest({ inputTokens: 50, outputTokens: 50 });
    await waiting;
    expect(second).toBe(true);
    guard.afterRequest({ inputTokens: 50, outputTokens: 50 });
    // 200 used, the largest request was 100: a third fits only if 200 + 100 ≤ 250 — it does not, but one alone may go.
    await guard.beforeRequest();
    guard.afterRequest({ inputTokens: 50, outputTokens: 50 });
    await expect(guard.beforeRequest()).rejects.toThrow(/token budget of 250 reached \(300 used\)/);
    expect(guard.stopReason).toMatch(/token budget/);
  });

  it('admits a request at once when it may go, says wait when it must, and refuses as beforeRequest does', () => {
    const guard = new BudgetGuard({ maxTokens: 250, maxRequests: 3 }, () => 0);
    expect(guard.admitNow()).toBe(true);
    // One in flight and no request's cost known yet: the next must wait, and is not counted.
    expect(guard.admitNow()).toBe(false);
    expect(guard.spent.requests).toBe(1);
    guard.afterRequest({ inputTokens: 50, outputTokens: 50 });
    expect(guard.admitNow()).toBe(true);
    guard.afterRequest({ inputTokens: 100, outputTokens: 100 });
    expect(() => guard.admitNow()).toThrow(/token budget of 250 reached \(300 used\)/);
    const aborted = new AbortController();
    aborted.abort();
    expect(() => new BudgetGuard({}, () => 0).admitNow(aborted.signal)).toThrow(/cancelled/);
  });

  it('counts steps and refuses the one past the limit', () => {
    const guard = new BudgetGuard({ maxSteps: 2 }, () => 0);
    expect(guard.beforeStep()).toBeNull();
    expect(guard.beforeStep()).toBeNull();
    expect(guard.beforeStep()).toMatch(/step budget of 2/);
  });
});
