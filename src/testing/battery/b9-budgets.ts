import type { Chain, RunBudget } from '../../chain/schema.ts';
import { runChain } from '../../engine/run.ts';
import { createMemoryRunRepository } from '../../trace/repository.ts';
import { createMockModelServer, type MockModelServer } from '../mock-server.ts';
import { countTokens, isModelCall, mockModel, mockProvider, PROTOCOLS, type Protocol } from './endpoints.ts';
import { sequentialChain } from './b11-bounds.ts';
import { installNetworkTrap } from './network-trap.ts';
import { CaseClock, CaseTimeout, watchUnhandledRejections, withTimeout, type BatterySuite, type SuiteOptions, type SuiteResult } from './types.ts';

/**
 * B9: run budgets (steps, requests, tokens, spend, time) are never exceeded by more than one
 * request in flight. Each case runs a chain through a real provider against the mock, which
 * reports a fixed usage per answer and answers after a delay (so requests overlap), and the
 * figures are read from what the mock received and from the run's own usage, never from the
 * budget guard itself.
 */
const TOKENS_PER_CALL = 100; // 60 in + 40 out, as the mock reports it
const PRICES = { input: 10, output: 30 }; // US$ per million tokens: 60·10 + 40·30 = $0.0018 per call
const COST_PER_CALL = (60 * PRICES.input + 40 * PRICES.output) / 1_000_000;
const DELAY_MS = 15;

const out = { type: 'object', properties: { summary: { type: 'string' } }, required: ['summary'], additionalProperties: false };

function fanOut(units: number, concurrency: number): Chain {
  return {
    format: 'seamscope.chain', version: 1, id: 'b9-fan', name: 'B9 fan-out',
    inputs: [{ name: 'items', schema: { type: 'array', items: { type: 'string' } }, trust: 'trusted', required: true }],
    steps: [
      { id: 'each', kind: 'map', name: 'Each', position: { x: 0, y: 0 }, config: { bindings: { items: 'inputs.items' }, prompt: 'Summarise {unit}.', outputSchema: out, concurrency } },
      { id: 'final', kind: 'output', name: 'Final', position: { x: 0, y: 100 }, config: { bindings: { value: 'steps.each' } } },
    ],
  };
}

type Limit = keyof RunBudget;

interface Case {
  protocol: Protocol;
  shape: 'sequential' | 'fan-out';
  concurrency: number;
  limit: Limit;
  value: number;
}

const LIMIT_VALUES: Record<Limit, number[]> = {
  maxSteps: [1, 3],
  maxRequests: [1, 5],
  maxTokens: [250, 1_050],
  maxCostUsd: [0.004, 0.01],
  maxTimeMs: [40, 120],
};

function cases(quick: boolean): Case[] {
  const list: Case[] = [];
  let i = 0;
  for (const limit of Object.keys(LIMIT_VALUES) as Limit[]) {
    for (const value of quick ? LIMIT_VALUES[limit].slice(0, 1) : LIMIT_VALUES[limit]) {
      for (const [shape, concurrency] of [['sequential', 1], ['fan-out', 1], ['fan-out', 4], ['fan-out', 16]] as const) {
        if (quick && concurrency === 4) continue;
        list.push({ protocol: PROTOCOLS[i++ % PROTOCOLS.length] ?? 'openai', shape, concurrency, limit, value });
      }
    }
  }
  return list;
}

async function runCase(server: MockModelServer, c: Case) {
  server.reset();
  const calls = CALLS;
  server.enqueue(...Array.from({ length: calls }, () => ({ content: { summary: 'short' }, usage: { inputTokens: 60, outputTokens: 40 }, delayMs: DELAY_MS })));
  const chain = c.shape === 'sequential' ? sequentialChain(calls) : fanOut(calls, c.concurrency);
  const inputs = c.shape === 'sequential' ? { document: 'Appeals within 180 days.' } : { items: Array.from({ length: calls }, (_, i) => `ticket ${i}`) };
  const started = performance.now();
  // When each request left, taken at the provider: the time budget is judged by what started late.
  const sentAt: number[] = [];
  const provider = mockProvider(c.protocol, server.url);
  const timed = { ...provider, call: (request: Parameters<typeof provider.call>[0], o: Parameters<typeof provider.call>[1]) => (sentAt.push(Date.now()), provider.call(request, o)) };
  const repo = createMemoryRunRepository();
  const controller = new AbortController();
  const run = runChain({
    chain, inputs, provider: timed, model: { ...mockModel, prices: PRICES }, repo, countTokens,
    signal: controller.signal, concurrency: 4, budget: { [c.limit]: c.value }, transport: { baseDelayMs: 5, maxDelayMs: 20, maxAttempts: 1, timeoutMs: 10_000 },
  });
  const meta = await withTimeout(run, 20_000, 'the run').catch(async (error: unknown) => {
    controller.abort();
    await run.catch(() => undefined);
    throw error;
  });
  const elapsedMs = performance.now() - started;
  const requests = server.requests.filter((r) => isModelCall(r.path)).length;
  const steps = (await repo.getEvents(meta.id)).filter((e) => e.type === 'step.started').length;
  // On the run's own clock: its budget counts from its start, a moment after this case began.
  return { meta, requests, steps, sentAt: sentAt.map((t) => t - meta.startedAt), elapsedMs };
}

const CALLS = 24;

/** Whether the case's chain needs more than its budget allows (then the run must stop), or null: judged by time. */
function mustStop(c: Case): boolean | null {
  switch (c.limit) {
    case 'maxSteps':
      return c.value < (c.shape === 'sequential' ? CALLS + 1 : 2);
    case 'maxRequests':
      return c.value < CALLS;
    case 'maxTokens':
      return c.value < CALLS * TOKENS_PER_CALL;
    case 'maxCostUsd':
      return c.value < CALLS * COST_PER_CALL;
    case 'maxTimeMs':
      return null;
  }
}

/** How far past its limit a case went, in units of one request (0: within it). */
function overshoot(c: Case, r: Awaited<ReturnType<typeof runCase>>): number {
  const tokens = (r.meta.usage?.inputTokens ?? 0) + (r.meta.usage?.outputTokens ?? 0);
  switch (c.limit) {
    case 'maxSteps':
      return Math.max(0, r.steps - c.value);
    case 'maxRequests':
      return Math.max(0, r.requests - c.value);
    case 'maxTokens':
      return Math.max(0, (tokens - c.value) / TOKENS_PER_CALL);
    case 'maxCostUsd':
      return Math.max(0, (r.requests * COST_PER_CALL - c.value) / COST_PER_CALL);
    case 'maxTimeMs':
      // The deadline cancels what is in flight and nothing starts after it (10 ms: the time between
      // the budget's check and the request leaving, on a loaded machine).
      return r.sentAt.filter((t) => t > c.value + 10).length;
  }
}

export const b9Budgets: BatterySuite = {
  id: 'B9',
  title: 'Run budgets',
  target: 'run budgets (steps, tokens, cost, time) never exceeded by more than one request in flight',
  async run(opts: SuiteOptions = {}): Promise<SuiteResult> {
    const server = await createMockModelServer({ idleExitMs: 60_000 });
    const trap = installNetworkTrap({ allowHosts: [new URL(server.url).host] });
    const rejections = watchUnhandledRejections();
    const clock = new CaseClock();
    const failures: string[] = [];
    const all = cases(Boolean(opts.quick));
    let definedEnd = 0;
    let stopped = 0;
    let within = 0;
    let worstOvershoot = 0;
    try {
      for (const c of all) {
        const label = `${c.protocol} · ${c.shape} ×${c.concurrency} · ${c.limit} ${c.value}`;
        try {
          const r = await clock.time(() => runCase(server, c));
          if (['succeeded', 'failed'].includes(r.meta.status)) definedEnd++;
          const byBudget = r.meta.status === 'failed' && /Run budget reached/.test(r.meta.error ?? '');
          // A run whose chain fits its budget must succeed; one that does not, stop with the reason.
          const expected = mustStop(c) ?? !(r.meta.status === 'succeeded' && r.elapsedMs <= c.value);
          if (expected ? byBudget : r.meta.status === 'succeeded') stopped++;
          else failures.push(`${label}: ended ${r.meta.status} (${r.meta.error ?? 'no error'}), expected ${expected ? 'to be stopped by its budget' : 'to succeed within it'}`);
          const over = overshoot(c, r);
          worstOvershoot = Math.max(worstOvershoot, over);
          // Steps and requests are counted before they start: never past the limit at all.
          const allowed = c.limit === 'maxTokens' || c.limit === 'maxCostUsd' ? 1 : 0;
          if (over <= allowed) within++;
          else failures.push(`${label}: ${over.toFixed(2)} past the limit (${r.steps} steps, ${r.requests} requests, ${Math.round(r.elapsedMs)} ms)`);
        } catch (error) {
          failures.push(`${label}: ${error instanceof CaseTimeout ? 'hung' : 'crashed'} — ${(error as Error).message}`);
        }
      }
    } finally {
      rejections.stop();
      trap.restore();
      await server.close();
    }
    const unexpected = trap.unexpected().length;
    const n = all.length;
    return {
      cases: n, definedEnd, dataLost: 0, networkRequests: unexpected, codeExecuted: null,
      worstMs: clock.worstMs, worstHeapMb: clock.worstHeapMb, failures: [...failures, ...rejections.reasons.map((r) => `unhandled rejection: ${r}`)],
      checks: [
        { name: 'every limit × shape × concurrency × protocol', ok: n >= 20 && definedEnd === n, detail: `${n} cases, ${definedEnd} defined` },
        { name: 'stopped by the budget with the reason (or, when the chain fits it, succeeded)', ok: stopped === n, detail: `${stopped}/${n}` },
        { name: 'past the limit by at most one request in flight', ok: within === n, detail: `${within}/${n}; worst ${worstOvershoot.toFixed(2)} requests` },
        { name: 'unhandled rejections', ok: rejections.count() === 0, detail: `${rejections.count()}` },
        { name: 'requests beyond the mock', ok: unexpected === 0, detail: `${unexpected}` },
      ],
    };
  },
};
