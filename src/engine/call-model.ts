import { afterSend } from '../providers/after-send.ts';
import { ProviderError, scrubProviderError } from '../providers/errors.ts';
import { shapeScrubber, type Scrubber } from '../providers/scrub.ts';
import type { ModelProvider, ModelRequest, ModelResponse } from '../providers/types.ts';
import type { BudgetGuard } from './budget.ts';
import { callDeadlines } from './deadlines.ts';
import type { ModelCallResult } from '../steps/types.ts';
import type { TraceEvent } from '../trace/events.ts';

/**
 * One model call with bounded, jittered transport retries (429 honouring Retry-After, 5xx,
 * overloaded, network, cut streams). Auth errors, bad requests and spend limits are not
 * retried: another attempt cannot fix them. Each retry is a trace event.
 */
export interface TransportPolicy {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  timeoutMs: number;
}

export const defaultTransportPolicy: TransportPolicy = { maxAttempts: 3, baseDelayMs: 500, maxDelayMs: 30_000, timeoutMs: 120_000 };

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new ProviderError('aborted'));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new ProviderError('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function backoffDelay(error: ProviderError, attempt: number, policy: TransportPolicy, random = Math.random): number {
  if (error.retryAfterMs !== null) return Math.min(error.retryAfterMs, policy.maxDelayMs);
  const exp = policy.baseDelayMs * 2 ** (attempt - 1);
  return Math.min(policy.maxDelayMs, exp / 2 + random() * (exp / 2));
}

export interface CallModelDeps {
  provider: ModelProvider;
  fetch: typeof fetch;
  signal: AbortSignal;
  policy: TransportPolicy;
  now: () => number;
  emit: (event: TraceEvent) => void;
  /** The run's budget, asked before every request. */
  budget?: BudgetGuard;
  /** The endpoint's prices per million tokens, for the budget's spend. */
  prices?: { input: number; output: number };
}

/**
 * The calls in flight under each cancel signal (a run's). One abort listener per signal
 * aborts them all, in the order they started, instead of one listener added and removed per call.
 */
const callsBySignal = new WeakMap<AbortSignal, Set<AbortController>>();

function trackCall(signal: AbortSignal, controller: AbortController): Set<AbortController> {
  let calls = callsBySignal.get(signal);
  if (!calls) {
    const created = new Set<AbortController>();
    signal.addEventListener('abort', () => {
      for (const call of created) call.abort();
      created.clear();
    }, { once: true });
    callsBySignal.set(signal, (calls = created));
  }
  calls.add(controller);
  return calls;
}

/**
 * Each call gets a controller of its own, never used before. Its signal is what costs: Node
 * builds an AbortSignal lazily, on first read, and that was about a tenth of the engine's own
 * time per call in `bench:engine` W1. So the next call's controller is made, signal and all,
 * while this call waits for its endpoint (see afterSend), not between the answer and the next
 * request.
 */
let spareController: AbortController | null = null;
let spareComing = false;

function freshController(): AbortController {
  const controller = spareController ?? new AbortController();
  spareController = null;
  return controller;
}

function prepareSpareController(): void {
  if (spareController || spareComing) return;
  spareComing = true;
  afterSend(() => {
    spareComing = false;
    const controller = new AbortController();
    void controller.signal;
    spareController = controller;
  });
}

/**
 * Where a provider's answer becomes a record: its raw body is scrubbed of the key and of key
 * shapes; the text and the request as sent only of the key itself (they must stay as they were).
 * Both bodies are sealed (never changed after this): the run's scrub of the attempt's event,
 * which carries them again, passes them through instead of walking them a second time.
 */
const sealed = <T>(scrub: Scrubber, value: T): T => (scrub.sealed ? scrub.sealed(value) : scrub.value(value));
function scrubResponse(response: ModelResponse, scrub: Scrubber): ModelResponse {
  return {
    ...response,
    text: scrub.keysOnly.text(response.text),
    // Tool arguments and reasoning are model output like the text: an endpoint that echoes the key can put it there too.
    ...(response.toolCalls ? { toolCalls: response.toolCalls.map((c) => ({ ...c, arguments: scrub.keysOnly.text(c.arguments) })) } : {}),
    ...(response.reasoning !== undefined ? { reasoning: scrub.keysOnly.text(response.reasoning) } : {}),
    requestBody: sealed(scrub.keysOnly, response.requestBody),
    rawResponse: sealed(scrub, response.rawResponse),
  };
}

export async function callModelWithRetries(deps: CallModelDeps, stepId: string, request: ModelRequest, onDelta?: (text: string) => void): Promise<ModelCallResult> {
  const scrub = deps.provider.scrubber ?? shapeScrubber;
  for (let attempt = 1; ; attempt++) {
    if (deps.signal.aborted) throw new ProviderError('aborted');
    // Every request, retries included, asks the run's budget first (a refusal is not retried).
    // Before the timeout starts: waiting for room in the budget is not the endpoint's delay.
    if (deps.budget && !deps.budget.admitNow(deps.signal)) await deps.budget.beforeRequest(deps.signal);
    const controller = freshController();
    let timedOut = false;
    const deadline = callDeadlines.add(deps.policy.timeoutMs, () => {
      timedOut = true;
      controller.abort();
    });
    const calls = trackCall(deps.signal, controller);
    const started = deps.now();
    let usage: ModelCallResult['response']['usage'] | undefined;
    try {
      if (deps.signal.aborted) throw new ProviderError('aborted');
      const answer = deps.provider.call(request, { fetch: deps.fetch, signal: controller.signal, onDelta });
      prepareSpareController();
      const response = await answer;
      usage = response.usage;
      return { response: scrubResponse(response, scrub), latencyMs: deps.now() - started };
    } catch (raw) {
      let error = scrubProviderError(raw instanceof ProviderError ? raw : new ProviderError('network', (raw as Error)?.message ?? String(raw)), scrub);
      if (timedOut && !deps.signal.aborted) error = new ProviderError('timeout', `no answer within ${deps.policy.timeoutMs} ms`);
      if (deps.signal.aborted) throw new ProviderError('aborted');
      if (!error.retryable || attempt >= deps.policy.maxAttempts) throw error;
      const waitMs = backoffDelay(error, attempt, deps.policy);
      deps.emit({ type: 'step.transport_retry', at: deps.now(), stepId, attempt, error: error.message, status: error.status, waitMs });
      await sleep(waitMs, deps.signal);
    } finally {
      callDeadlines.clear(deadline);
      calls.delete(controller);
      deps.budget?.afterRequest(usage, deps.prices);
    }
  }
}
