import { generateDemoOutput } from './demo-generate.ts';
import { ProviderError } from './errors.ts';
import type { CallContext, ModelProvider, ModelRequest, ModelResponse } from './types.ts';

/**
 * The offline demo model: the app's default endpoint, so a chain runs with no key and no
 * network. It answers by extraction from its own prompt (see demo-generate.ts) and dresses
 * the result as an OpenAI chat completion, so the trace views look exactly as they do for a
 * real endpoint. No Node APIs: it runs in the tab.
 */

export { generateDemoOutput };

export interface DemoProviderOptions {
  /** Simulated time to first token, in ms (0: answer on the next tick). */
  latencyMs?: number;
  /** Pause between streamed pieces, in ms. */
  streamIntervalMs?: number;
  /** Clock for the `created` field (seconds are derived from it). */
  now?: () => number;
}

const DEFAULT_MODEL = 'seamscope-demo-1';
const PIECE = 16;

function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** FNV-1a: a stable completion id from the output, so identical runs produce identical traces. */
function hashId(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

/**
 * A wait of zero still yields a macrotask, so an abort issued right after the call lands. In Node
 * that is setImmediate: setTimeout(0) waits at least a millisecond, which on the instant demo
 * model was most of a model step's wall time (a 5,000-step line waited five seconds on timers).
 */
const nextTurn = typeof globalThis.setImmediate === 'function'
  ? { set: (fn: () => void) => globalThis.setImmediate(fn), clear: (t: unknown) => globalThis.clearImmediate(t as ReturnType<typeof setImmediate>) }
  : null;

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new ProviderError('aborted'));
    const onAbort = () => {
      if (immediate) nextTurn?.clear(timer);
      else clearTimeout(timer as ReturnType<typeof setTimeout>);
      reject(new ProviderError('aborted'));
    };
    const done = () => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    };
    const immediate = ms <= 0 && nextTurn !== null;
    const timer: unknown = immediate ? nextTurn.set(done) : setTimeout(done, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function requestBodyFor(request: ModelRequest, model: string): Record<string, unknown> {
  const body: Record<string, unknown> = { model, messages: request.messages, max_tokens: request.maxTokens };
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.contract) {
    body.response_format = {
      type: 'json_schema',
      json_schema: { name: request.contract.name, schema: request.contract.schema, strict: request.contract.strict },
    };
  }
  if (request.stream) body.stream = true;
  return body;
}

export function createDemoProvider(opts: DemoProviderOptions = {}): ModelProvider {
  const latencyMs = opts.latencyMs ?? 0;
  const interval = opts.streamIntervalMs ?? 0;
  const now = opts.now ?? Date.now;

  return {
    kind: 'demo',
    async call(request: ModelRequest, ctx: CallContext): Promise<ModelResponse> {
      const { signal } = ctx;
      if (signal?.aborted) throw new ProviderError('aborted');
      const model = request.model || DEFAULT_MODEL;
      const text = generateDemoOutput(request.messages, request.contract?.schema ?? null);
      const id = `chatcmpl-demo-${hashId(text)}`;
      const created = Math.floor(now() / 1000);
      const usage = {
        inputTokens: request.messages.reduce((sum, m) => sum + estimateTokens(m.content) + 4, 0),
        outputTokens: estimateTokens(text),
      };
      const openaiUsage = { prompt_tokens: usage.inputTokens, completion_tokens: usage.outputTokens, total_tokens: usage.inputTokens + usage.outputTokens };
      // Yield at least once so an abort issued right after the call still lands.
      await sleep(latencyMs, signal);

      let rawResponse: unknown;
      if (request.stream) {
        const chunk = (delta: Record<string, unknown>, finish: string | null, extra: Record<string, unknown> = {}) => ({
          id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra,
        });
        const events: unknown[] = [chunk({ role: 'assistant', content: '' }, null)];
        for (let i = 0; i < text.length; i += PIECE) {
          if (signal?.aborted) throw new ProviderError('aborted');
          const piece = text.slice(i, i + PIECE);
          events.push(chunk({ content: piece }, null));
          ctx.onDelta?.(piece);
          if (interval > 0) await sleep(interval, signal);
        }
        events.push(chunk({}, 'stop', { usage: openaiUsage }));
        rawResponse = events;
      } else {
        rawResponse = {
          id, object: 'chat.completion', created, model,
          choices: [{ index: 0, message: { role: 'assistant', content: text, refusal: null }, finish_reason: 'stop', logprobs: null }],
          usage: openaiUsage,
        };
      }
      if (signal?.aborted) throw new ProviderError('aborted');
      return { text, finishReason: 'stop', rawFinishReason: 'stop', usage, requestBody: requestBodyFor(request, model), rawResponse, status: 200, model };
    },
  };
}
