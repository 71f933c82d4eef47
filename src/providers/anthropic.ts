import { ProviderError, type ProviderErrorCode } from './errors.ts';
import { definedOnly, isEventStream, isRecord, joinUrl, parseJson, postJson, readText, retryAfterFromHeaders, snippet } from './http.ts';
import { createScrubber, type Scrubber } from './scrub.ts';
import { readSse } from './sse.ts';
import { anthropicToolCall, anthropicTools, ToolCallAssembler } from './tool-calls.ts';
import type { CallContext, ChatMessage, FinishReason, ModelProvider, ModelRequest, ModelResponse, TokenUsage, ToolCall } from './types.ts';

/** Anthropic Messages API: POST {baseUrl}/v1/messages, baseUrl like `https://api.anthropic.com`. */
export interface AnthropicProviderOptions {
  baseUrl: string;
  apiKey?: string;
  /** Send the output contract as `output_config.format` (structured outputs). Default true. */
  structuredOutput?: boolean;
  /** In a browser tab: Anthropic refuses CORS calls unless this opt-in header is sent. */
  browser?: boolean;
  /** The `anthropic-version` to send; default the current one. */
  apiVersion?: AnthropicVersion;
}

/**
 * API versions the client speaks. 2026-10-21 (the current one, sent by the vendor's SDKs since
 * their 2026-10-21 majors) refuses `temperature`, `top_p` and `top_k`, so they are sent only
 * under 2023-06-01 (Anthropic's migration guide, api/migration-2026-10-21).
 */
export const ANTHROPIC_VERSIONS = ['2026-10-21', '2023-06-01'] as const;
export type AnthropicVersion = (typeof ANTHROPIC_VERSIONS)[number];
export const ANTHROPIC_VERSION: AnthropicVersion = '2026-10-21';

export function createAnthropicProvider(opts: AnthropicProviderOptions): ModelProvider {
  // Users paste either `https://api.anthropic.com` or `.../v1`; both mean the same endpoint.
  const base = opts.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
  const url = joinUrl(base, 'v1/messages');
  const scrubber = createScrubber([opts.apiKey]);
  return {
    kind: 'anthropic',
    scrubber,
    call: (request, ctx) => callAnthropic(opts, url, request, ctx, scrubber),
  };
}

/** The exact request body; exported so the trace and tests can show what will be sent. */
export function buildAnthropicBody(request: ModelRequest, opts: Pick<AnthropicProviderOptions, 'structuredOutput' | 'apiVersion'>): Record<string, unknown> {
  const system = request.messages.filter((m) => m.role === 'system').map((m) => m.content);
  const body: Record<string, unknown> = { model: request.model, max_tokens: request.maxTokens };
  // There is no system role in `messages`: the system prompt is a top-level field.
  if (system.length > 0) body.system = system.join('\n\n');
  body.messages = mergeTurns(request.messages.filter((m) => m.role !== 'system'));
  if (request.temperature !== undefined && samplingAllowed(opts.apiVersion)) body.temperature = request.temperature;
  if (request.contract && opts.structuredOutput !== false) {
    body.output_config = { format: { type: 'json_schema', schema: request.contract.schema } };
  }
  if (request.tools && request.tools.length > 0) Object.assign(body, anthropicTools(request.tools, request.toolChoice));
  const s = request.sampling;
  // Messages has no seed, penalties or JSON mode: left out (a rerun names them).
  if (s) Object.assign(body, definedOnly({ ...(samplingAllowed(opts.apiVersion) ? { top_p: s.topP, top_k: s.topK } : {}), stop_sequences: s.stop }));
  if (request.stream) body.stream = true;
  return body;
}

/**
 * Adjacent turns of one role are joined here. The API combines them itself (the SDK's `messages`
 * doc); joining first makes the request body, and so the trace, show the turns the model saw.
 */
function mergeTurns(messages: ChatMessage[]): { role: 'user' | 'assistant'; content: string }[] {
  const out: { role: 'user' | 'assistant'; content: string }[] = [];
  for (const m of messages) {
    const role = m.role === 'assistant' ? 'assistant' : 'user';
    const last = out[out.length - 1];
    if (last && last.role === role) last.content = `${last.content}\n\n${m.content}`;
    else out.push({ role, content: m.content });
  }
  return out;
}

function samplingAllowed(version: AnthropicVersion | undefined): boolean {
  return (version ?? ANTHROPIC_VERSION) === '2023-06-01';
}

/** Anthropic's temperature range is 0–1 (OpenAI's is 0–2); the API answers 400 outside it. */
export const ANTHROPIC_MAX_TEMPERATURE = 1;

async function callAnthropic(opts: AnthropicProviderOptions, url: string, request: ModelRequest, ctx: CallContext, scrubber: Scrubber): Promise<ModelResponse> {
  // Said here, before anything is sent or spent, in words that name the fix.
  if (samplingAllowed(opts.apiVersion) && request.temperature !== undefined && (request.temperature < 0 || request.temperature > ANTHROPIC_MAX_TEMPERATURE)) {
    throw new ProviderError('bad_request', `temperature ${request.temperature} is outside Anthropic's range 0–${ANTHROPIC_MAX_TEMPERATURE}; lower the step's temperature`);
  }
  const body = buildAnthropicBody(request, opts);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: request.stream ? 'text/event-stream' : 'application/json',
    'anthropic-version': opts.apiVersion ?? ANTHROPIC_VERSION,
  };
  // The key travels only in this header: never in the body, the URL or the trace.
  if (opts.apiKey) headers['x-api-key'] = opts.apiKey;
  if (opts.browser) headers['anthropic-dangerous-direct-browser-access'] = 'true';

  const res = await postJson(ctx, url, headers, body, scrubber);
  if (!res.ok) throw anthropicHttpError(res, await readText(res, ctx.signal));
  if (request.stream && isEventStream(res)) return readAnthropicStream(res, body, request, ctx);
  return parseAnthropicBody(await readText(res, ctx.signal), res.status, body, request, scrubber);
}

function parseAnthropicBody(text: string, status: number, requestBody: unknown, request: ModelRequest, scrubber: Scrubber): ModelResponse {
  const json = parseJson(text);
  if (!isRecord(json)) throw new ProviderError('bad_response', `${status}: body is not a JSON object: ${snippet(text, 120)}`, { status, body: text });
  // As in openai.ts: a body whose text holds no key and no key shape is recorded without a walk.
  scrubber.sealJsonText?.(text, json);
  if (json.type === 'error') throw anthropicBodyError(json, status);
  if (!Array.isArray(json.content)) throw new ProviderError('bad_response', `${status}: the message has no content array`, { status, body: json });
  const blocks = json.content.filter(isRecord);
  const content = blocks
    .filter((b) => b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text as string)
    .join('');
  const toolCalls = blocks.filter((b) => b.type === 'tool_use').map(anthropicToolCall);
  const reasoning = blocks.filter((b) => b.type === 'thinking' && typeof b.thinking === 'string').map((b) => b.thinking as string).join('\n\n');
  const stopReason = typeof json.stop_reason === 'string' ? json.stop_reason : null;
  const usage = isRecord(json.usage) ? json.usage : {};
  return {
    text: refusalText(stopReason, content, json.stop_details),
    finishReason: mapStopReason(stopReason),
    rawFinishReason: stopReason,
    usage: usageOf(usage),
    ...extras(toolCalls, reasoning),
    requestBody,
    rawResponse: json,
    status,
    model: typeof json.model === 'string' ? json.model : request.model,
  };
}

async function readAnthropicStream(res: Response, requestBody: unknown, request: ModelRequest, ctx: CallContext): Promise<ModelResponse> {
  const events: unknown[] = [];
  let text = '';
  let reasoning = '';
  const tools = new ToolCallAssembler();
  let stopReason: string | null = null;
  let stopDetails: unknown = null;
  const usage: TokenUsage = { inputTokens: 0, outputTokens: 0 };
  let model = request.model;
  let done = false;

  await readSse(res, ctx.signal, ({ event, data, atEof }) => {
    const payload = parseJson(data);
    if (payload === undefined) {
      if (atEof) throw new ProviderError('stream_cut', 'the stream broke off inside an event', { status: res.status });
      throw new ProviderError('bad_response', `stream event is not JSON: ${snippet(data, 120)}`, { status: res.status, body: data });
    }
    events.push(payload);
    if (!isRecord(payload)) throw new ProviderError('bad_response', 'stream event is not a JSON object', { status: res.status, body: payload });
    const type = typeof payload.type === 'string' ? payload.type : event;
    switch (type) {
      case 'message_start': {
        const message = isRecord(payload.message) ? payload.message : {};
        if (typeof message.model === 'string') model = message.model;
        if (isRecord(message.usage)) Object.assign(usage, usageOf(message.usage));
        return;
      }
      case 'content_block_start': {
        const block = payload.content_block;
        const index = typeof payload.index === 'number' ? payload.index : 0;
        if (isRecord(block) && block.type === 'text' && typeof block.text === 'string' && block.text) {
          text += block.text;
          ctx.onDelta?.(block.text);
        }
        // The input starts as `{}` and arrives in `input_json_delta` fragments.
        if (isRecord(block) && block.type === 'tool_use') tools.add(index, { id: block.id, name: block.name });
        if (isRecord(block) && block.type === 'thinking' && typeof block.thinking === 'string') reasoning += block.thinking;
        return;
      }
      case 'content_block_delta': {
        const delta = payload.delta;
        const index = typeof payload.index === 'number' ? payload.index : 0;
        if (isRecord(delta) && delta.type === 'text_delta' && typeof delta.text === 'string') {
          text += delta.text;
          ctx.onDelta?.(delta.text);
        }
        if (isRecord(delta) && delta.type === 'input_json_delta' && typeof delta.partial_json === 'string' && tools.has(index)) tools.add(index, { arguments: delta.partial_json });
        if (isRecord(delta) && delta.type === 'thinking_delta' && typeof delta.thinking === 'string') reasoning += delta.thinking;
        return;
      }
      case 'message_delta': {
        const delta = isRecord(payload.delta) ? payload.delta : {};
        if (typeof delta.stop_reason === 'string') stopReason = delta.stop_reason;
        if (delta.stop_details !== undefined) stopDetails = delta.stop_details;
        // Counts here are cumulative; input_tokens is sometimes restated (and then final).
        if (isRecord(payload.usage)) {
          if (typeof payload.usage.output_tokens === 'number') usage.outputTokens = payload.usage.output_tokens;
          if (typeof payload.usage.input_tokens === 'number') usage.inputTokens = inputTokensOf(payload.usage);
          if (typeof payload.usage.cache_read_input_tokens === 'number') usage.cachedInputTokens = payload.usage.cache_read_input_tokens;
          const thinking = thinkingTokensOf(payload.usage);
          if (thinking !== undefined) usage.reasoningTokens = thinking;
        }
        return;
      }
      case 'message_stop':
        done = true;
        return 'stop';
      case 'error':
        // The SDK throws on `event: error` (e.g. overloaded_error) even though the status was 200.
        throw anthropicBodyError(payload, null);
      default:
        // ping, content_block_stop and future event types carry nothing we need.
        return;
    }
  });

  // A stream without message_stop must never pass as a complete answer.
  if (!done) throw new ProviderError('stream_cut', 'the stream ended without message_stop', { status: res.status, body: events });
  return {
    text: refusalText(stopReason, text, stopDetails),
    finishReason: mapStopReason(stopReason),
    rawFinishReason: stopReason,
    usage,
    // A tool_use block with no input fragments keeps the `{}` it started with.
    ...extras(tools.list().map((c) => (c.arguments === '' ? { ...c, arguments: '{}' } : c)), reasoning),
    requestBody,
    rawResponse: events,
    status: res.status,
    model,
  };
}

/** A refusal often has no text at all; its explanation is the only readable answer then. */
function refusalText(stopReason: string | null, text: string, stopDetails: unknown): string {
  if (stopReason === 'refusal' && !text && isRecord(stopDetails) && typeof stopDetails.explanation === 'string') return stopDetails.explanation;
  return text;
}

function mapStopReason(raw: string | null): FinishReason {
  switch (raw) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'refusal':
      return 'refusal';
    case 'tool_use':
      return 'tool_calls';
    default:
      return 'other';
  }
}

function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

/** Tool calls and reasoning, present only when the reply had them. */
function extras(toolCalls: ToolCall[], reasoning: string): Pick<ModelResponse, 'toolCalls' | 'reasoning'> {
  return { ...(toolCalls.length > 0 ? { toolCalls } : {}), ...(reasoning ? { reasoning } : {}) };
}

function thinkingTokensOf(usage: Record<string, unknown>): number | undefined {
  const details = usage.output_tokens_details;
  return isRecord(details) && typeof details.thinking_tokens === 'number' ? details.thinking_tokens : undefined;
}

/** Token counts of a Message's usage; cache reads and thinking tokens only when reported. */
function usageOf(usage: Record<string, unknown>): TokenUsage {
  const out: TokenUsage = { inputTokens: inputTokensOf(usage), outputTokens: num(usage.output_tokens) };
  if (typeof usage.cache_read_input_tokens === 'number') out.cachedInputTokens = usage.cache_read_input_tokens;
  const thinking = thinkingTokensOf(usage);
  if (thinking !== undefined) out.reasoningTokens = thinking;
  return out;
}

/** Cached prompt tokens are reported apart from input_tokens; all of them were sent. */
function inputTokensOf(usage: Record<string, unknown>): number {
  return num(usage.input_tokens) + num(usage.cache_creation_input_tokens) + num(usage.cache_read_input_tokens);
}

/**
 * Spend limits arrive as ordinary 400/429 bodies, e.g. invalid_request_error "Your credit
 * balance is too low to access the Anthropic API…" or "You have reached your specified API
 * usage limits. You will regain access on …" (seen in real traffic). Retrying cannot help.
 */
const SPEND_LIMIT = /credit balance is too low|specified API usage limits|usage credits are required|extra usage is required|spend(ing)? limit/i;

function codeFor(status: number | null, type: string, message: string): ProviderErrorCode {
  if (type === 'billing_error' || status === 402) return 'quota_exceeded';
  if ((status === null || status === 400 || status === 429) && SPEND_LIMIT.test(message)) return 'quota_exceeded';
  switch (type) {
    case 'authentication_error':
    case 'permission_error':
      return 'auth';
    case 'rate_limit_error':
      return 'rate_limited';
    case 'overloaded_error':
      return 'overloaded';
    case 'api_error':
      return 'server_error';
    case 'timeout_error':
      return 'timeout';
    case 'not_found_error':
      return 'not_found';
    case 'invalid_request_error':
    case 'request_too_large':
      return 'bad_request';
  }
  if (status === null) return 'bad_response';
  if (status === 401 || status === 403) return 'auth';
  if (status === 429) return 'rate_limited';
  if (status === 529) return 'overloaded';
  if (status === 404) return 'not_found';
  if (status === 408) return 'timeout';
  if (status >= 500) return 'server_error';
  return 'bad_request';
}

function errorOf(body: unknown): { type: string; message: string } | null {
  if (!isRecord(body) || !isRecord(body.error)) return null;
  return {
    type: typeof body.error.type === 'string' ? body.error.type : '',
    message: typeof body.error.message === 'string' ? body.error.message : '',
  };
}

function anthropicHttpError(res: Response, text: string): ProviderError {
  const body = parseJson(text);
  const err = errorOf(body);
  const detail = err ? `${res.status}${err.type ? ` ${err.type}` : ''}: ${err.message || '(no message)'}` : `${res.status}: ${snippet(text) || '(empty body)'}`;
  return new ProviderError(codeFor(res.status, err?.type ?? '', err?.message ?? ''), detail, {
    status: res.status,
    retryAfterMs: retryAfterFromHeaders(res.headers),
    body: body ?? text,
  });
}

function anthropicBodyError(body: Record<string, unknown>, status: number | null): ProviderError {
  const err = errorOf(body) ?? { type: '', message: '' };
  const where = status === null ? 'in stream' : String(status);
  return new ProviderError(codeFor(status, err.type, err.message), `${where}${err.type ? ` ${err.type}` : ''}: ${err.message || '(no message)'}`, { status, body });
}
