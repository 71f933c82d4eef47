import { describe, expect, it } from 'vitest';
import { ProviderError } from '../providers/errors.ts';
import type { CallContext, ModelProvider, ModelRequest, ModelResponse } from '../providers/types.ts';
import { createScrubber } from '../providers/scrub.ts';
import { callModelWithRetries, defaultTransportPolicy, type CallModelDeps } from './call-model.ts';

const request: ModelRequest = { model: 'm', messages: [{ role: 'user', content: 'hi' }], maxTokens: 10 };
const response: ModelResponse = { text: 'ok', finishReason: 'stop', rawFinishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1 }, requestBody: {}, rawResponse: {}, status: 200, model: 'm' };

/** A provider whose calls hang until their signal aborts (or `release` answers them). */
function hangingProvider() {
  const signals: AbortSignal[] = [];
  const pending: (() => void)[] = [];
  const provider: ModelProvider = {
    kind: 'hang',
    call: (_req, ctx: CallContext) => new Promise<ModelResponse>((resolve, reject) => {
      const signal = ctx.signal as AbortSignal;
      signals.push(signal);
      pending.push(() => resolve(response));
      signal.addEventListener('abort', () => reject(new ProviderError('aborted', 'aborted')), { once: true });
    }),
  };
  return { provider, signals, release: () => pending.splice(0).forEach((f) => f()) };
}

const deps = (provider: ModelProvider, signal: AbortSignal, timeoutMs = 60_000): CallModelDeps => ({
  provider, fetch: globalThis.fetch, signal, now: Date.now, emit: () => undefined,
  policy: { ...defaultTransportPolicy, timeoutMs, maxAttempts: 1 },
});

describe('callModelWithRetries: cancel and timeout', () => {
  it('a cancel reaches every call in flight under the run signal, and each ends as aborted', async () => {
    const { provider, signals } = hangingProvider();
    const run = new AbortController();
    const calls = Array.from({ length: 5 }, () => callModelWithRetries(deps(provider, run.signal), 's', request).then(() => 'answered', (e: ProviderError) => e.code));
    await new Promise((r) => setTimeout(r, 5));
    expect(signals).toHaveLength(5);
    expect(signals.some((s) => s.aborted)).toBe(false);
    run.abort();
    expect(await Promise.all(calls)).toEqual(['aborted', 'aborted', 'aborted', 'aborted', 'aborted']);
    expect(signals.every((s) => s.aborted)).toBe(true);
  });

  it('a finished call is no longer tied to the run signal; later calls under it still are', async () => {
    const { provider, signals, release } = hangingProvider();
    const run = new AbortController();
    const first = callModelWithRetries(deps(provider, run.signal), 's', request);
    await new Promise((r) => setTimeout(r, 5));
    release();
    expect((await first).response.text).toBe('ok');
    const second = callModelWithRetries(deps(provider, run.signal), 's', request).catch((e: ProviderError) => e.code);
    await new Promise((r) => setTimeout(r, 5));
    run.abort();
    expect(await second).toBe('aborted');
    expect(signals[0]?.aborted).toBe(false);
    expect(signals[1]?.aborted).toBe(true);
  });

  it('every call, one after another or side by side, gets a signal of its own that no call had before', async () => {
    const { provider, signals, release } = hangingProvider();
    const run = new AbortController();
    for (let i = 0; i < 4; i++) {
      const call = callModelWithRetries(deps(provider, run.signal), 's', request);
      // The next call's controller is made while this one waits: let that turn pass.
      await new Promise((r) => setTimeout(r, 2));
      release();
      await call;
    }
    const together = [0, 1, 2].map(() => callModelWithRetries(deps(provider, run.signal), 's', request));
    await new Promise((r) => setTimeout(r, 2));
    release();
    await Promise.all(together);
    expect(signals).toHaveLength(7);
    expect(new Set(signals).size).toBe(7);
    expect(signals.some((s) => s.aborted)).toBe(false);
    // A cancel now reaches no finished call's signal.
    run.abort();
    expect(signals.some((s) => s.aborted)).toBe(false);
  });

  it('a call under an already cancelled signal ends as aborted without calling', async () => {
    const { provider, signals } = hangingProvider();
    const run = new AbortController();
    run.abort();
    await expect(callModelWithRetries(deps(provider, run.signal), 's', request)).rejects.toMatchObject({ code: 'aborted' });
    expect(signals).toHaveLength(0);
  });

  it('a call with no answer times out as a timeout, not as a cancel, and leaves the others running', async () => {
    const { provider, signals, release } = hangingProvider();
    const run = new AbortController();
    const slow = callModelWithRetries(deps(provider, run.signal, 30), 's', request).catch((e: ProviderError) => e);
    const other = callModelWithRetries(deps(provider, run.signal), 's', request);
    const error = await slow;
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).code).toBe('timeout');
    expect((error as ProviderError).message).toContain('30 ms');
    expect(signals[1]?.aborted).toBe(false);
    release();
    expect((await other).response.text).toBe('ok');
  });
});

describe('callModelWithRetries: the key never reaches a record', () => {
  it('scrubs the key from tool call arguments and reasoning, as from the text', async () => {
    const key = 'sk-echoed-key-1234567890';
    const echoing: ModelProvider = {
      kind: 'echo',
      scrubber: createScrubber([key]),
      call: async () => ({ ...response, text: `text ${key}`, reasoning: `thought ${key}`, toolCalls: [{ id: 'c', name: 't', arguments: JSON.stringify({ k: key }) }] }),
    };
    const { response: got } = await callModelWithRetries(deps(echoing, new AbortController().signal), 's', request);
    expect(JSON.stringify([got.text, got.reasoning, got.toolCalls])).not.toContain(key);
    expect(got.toolCalls?.[0]?.name).toBe('t');
  });
});
