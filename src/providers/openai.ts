import { ProviderError, type ProviderErrorCode } from './errors.ts';
import { definedOnly, isEventStream, isRecord, joinUrl, parseJson, postJson, readText, retryAfterFromHeaders, snippet } from './http.ts';
import { createScrubber, type Scrubber } from './scrub.ts';
import { readSse } from './sse.ts';
import { openAIToolCalls, openAITools, ToolCallAssembler } from './tool-calls.ts';
import type { CallContext, FinishReason, ModelProvider, ModelRequest, ModelResponse, TokenUsage, ToolCall } from './types.ts';

/**
 * OpenAI Chat Completions (and the many servers that copy it): POST {baseUrl}/chat/completions,
 * where baseUrl already ends in `/v1` (or whatever prefix a compatible server uses).
 */
export interface OpenAIProviderOptions {
  baseUrl: string;
  apiKey?: string;
  /** Send the output contract as `response_format: json_schema`. Default true. */
  structuredOutput?: boolean;
  /** Newer (reasoning) models reject `max_tokens` and want `max_completion_tokens`. */
  maxTokensParam?: 'max_tokens' | 'max_completion_tokens';
  extraHeaders?: Record<string, string>;
}

export function createOpenAIProvider(opts: OpenAIProviderOptions): ModelProvider {
  const url = joinUrl(opts.baseUrl, 'chat/completions');
  const scrubber = createScrubber([opts.apiKey]);
  // The headers depend only on the options and on streaming: made once per provider, not per call.
  const headers = { json: requestHeaders(opts, false), stream: requestHeaders(opts, true) };
  return {
    kind: 'openai',
    scrubber,
    call: (request, ctx) => callOpenAI(opts, url, request, ctx, scrubber, request.stream ? headers.stream : headers.json),
  };
}

function requestHeaders(opts: OpenAIProviderOptions, stream: boolean): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {
    ...opts.extraHeaders,
    'content-type': 'application/json',
    accept: stream ? 'text/event-stream' : 'application/json',
  };
  // The key travels only in this header: never in the body, the URL or the trace.
  if (opts.apiKey) headers.authorization = `Bearer ${opts.apiKey}`;
  return Object.freeze(headers);
}

/** The exact request body; exported so the trace and tests can show what will be sent. */
export function buildOpenAIBody(request: ModelRequest, opts: Pick<OpenAIProviderOptions, 'structuredOutput' | 'maxTokensParam'>): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: request.model,
    messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
  };
  if (request.temperature !== undefined) body.temperature = request.temperature;
  body[opts.maxTokensParam ?? 'max_tokens'] = request.maxTokens;
  if (request.contract && opts.structuredOutput !== false) {
    body.response_format = {
      type: 'json_schema',
      json_schema: { name: request.contract.name, schema: request.contract.schema, strict: request.contract.strict },
    };
  } else if (request.jsonMode && opts.structuredOutput !== false) body.response_format = { type: 'json_object' };
  const s = request.sampling;
  // top_k has no place in Chat Completions: left out (a rerun names it).
  if (s) Object.assign(body, definedOnly({ top_p: s.topP, seed: s.seed, stop: s.stop, frequency_penalty: s.frequencyPenalty, presence_penalty: s.presencePenalty }));
  if (request.tools && request.tools.length > 0) Object.assign(body, openAITools(request.tools, request.toolChoice));
  if (request.stream) {
    body.stream = true;
    // Without this the stream carries no token counts at all.
    body.stream_options = { include_usage: true };
  }
  return body;
}

async function callOpenAI(opts: OpenAIProviderOptions, url: string, request: ModelRequest, ctx: CallContext, scrubber: Scrubber, headers: Readonly<Record<string, string>>): Promise<ModelResponse> {
  const body = buildOpenAIBody(request, opts);
  const res = await postJson(ctx, url, headers, body, scrubber);
  if (!res.ok) throw openAIHttpError(res, await readText(res, ctx.signal));
  // Some compatible servers ignore `stream: true` and answer one JSON body; that is complete, so accept it.
  if (request.stream && isEventStream(res)) return readOpenAIStream(res, body, request, ctx);
  return parseOpenAIBody(await readText(res, ctx.signal), res.status, body, request, scrubber);
}

function parseOpenAIBody(text: string, status: number, requestBody: unknown, request: ModelRequest, scrubber: Scrubber): ModelResponse {
  const json = parseJson(text);
  if (!isRecord(json)) throw new ProviderError('bad_response', `${status}: body is not a JSON object: ${snippet(text, 120)}`, { status, body: text });
  // The body as text shows whether any string in it can hold the key or a key shape (usually not):
  // then the answer is recorded without the scrub walking it (see Scrubber.sealJsonText).
  scrubber.sealJsonText?.(text, json);
  if (isRecord(json.error) && !Array.isArray(json.choices)) throw openAIBodyError(json, status);
  const choice = Array.isArray(json.choices) ? json.choices[0] : undefined;
  if (!isRecord(choice) || !isRecord(choice.message)) {
    throw new ProviderError('bad_response', `${status}: no choices[0].message in the completion`, { status, body: json });
  }
  const message = choice.message;
  const content = typeof message.content === 'string' ? message.content : '';
  const refusal = typeof message.refusal === 'string' ? message.refusal : null;
  const rawFinish = typeof choice.finish_reason === 'string' ? choice.finish_reason : null;
  const toolCalls = openAIToolCalls(message.tool_calls);
  // DeepSeek and other compatible servers return their reasoning beside the answer.
  const reasoning = typeof message.reasoning_content === 'string' ? message.reasoning_content : '';
  return {
    text: refusal ?? content,
    finishReason: refusal !== null ? 'refusal' : mapFinishReason(rawFinish, toolCalls),
    rawFinishReason: rawFinish,
    usage: usageOf(json.usage),
    ...extras(toolCalls, reasoning),
    requestBody,
    rawResponse: json,
    status,
    model: typeof json.model === 'string' ? json.model : request.model,
  };
}

async function readOpenAIStream(res: Response, requestBody: unknown, request: ModelRequest, ctx: CallContext): Promise<ModelResponse> {
  const chunks: unknown[] = [];
  let content = '';
  let refusal = '';
  let reasoning = '';
  const tools = new ToolCallAssembler();
  let rawFinish: string | null = null;
  let usage: unknown = null;
  let model = request.model;
  let done = false;

  await readSse(res, ctx.signal, ({ data, atEof }) => {
    if (data.trim() === '[DONE]') {
      done = true;
      return 'stop';
    }
    const payload = parseJson(data);
    if (payload === undefined) {
      if (atEof) throw new ProviderError('stream_cut', 'the stream broke off inside a chunk', { status: res.status });
      throw new ProviderError('bad_response', `stream chunk is not JSON: ${snippet(data, 120)}`, { status: res.status, body: data });
    }
    chunks.push(payload);
    if (!isRecord(payload)) throw new ProviderError('bad_response', 'stream chunk is not a JSON object', { status: res.status, body: payload });
    // openai-node raises a chunk carrying `error` as an API error: the HTTP status was already 200.
    if (isRecord(payload.error)) throw openAIBodyError(payload, null);
    if (typeof payload.model === 'string' && payload.model) model = payload.model;
    if (isRecord(payload.usage)) usage = payload.usage;
    // Groq puts the stream's usage in its own `x_groq` object (corpus groq-tool-call.chunks.jsonl).
    else if (isRecord(payload.x_groq) && isRecord(payload.x_groq.usage)) usage = payload.x_groq.usage;
    const choices = Array.isArray(payload.choices) ? payload.choices : [];
    const choice = choices.find((c) => isRecord(c) && (c.index === 0 || c.index === undefined));
    if (!isRecord(choice)) return;
    const delta = isRecord(choice.delta) ? choice.delta : {};
    if (typeof delta.content === 'string' && delta.content) {
      content += delta.content;
      ctx.onDelta?.(delta.content);
    }
    if (typeof delta.refusal === 'string' && delta.refusal) {
      refusal += delta.refusal;
      ctx.onDelta?.(delta.refusal);
    }
    if (typeof delta.reasoning_content === 'string') reasoning += delta.reasoning_content;
    // Fragments are joined by their index, which need not start at 0 (corpus compat-tool-call-stream.sse).
    if (Array.isArray(delta.tool_calls)) {
      for (const part of delta.tool_calls) {
        if (!isRecord(part)) continue;
        const fn = isRecord(part.function) ? part.function : {};
        tools.add(typeof part.index === 'number' ? part.index : 0, { id: part.id, name: fn.name, arguments: fn.arguments });
      }
    }
    if (typeof choice.finish_reason === 'string') rawFinish = choice.finish_reason;
  });

  // A stream without its ending must never pass as a complete answer.
  if (!done) throw new ProviderError('stream_cut', 'the stream ended without data: [DONE]', { status: res.status, body: chunks });
  if (rawFinish === null) throw new ProviderError('stream_cut', 'the stream ended without a finish_reason', { status: res.status, body: chunks });
  const toolCalls = tools.list();
  return {
    text: refusal || content,
    finishReason: refusal ? 'refusal' : mapFinishReason(rawFinish, toolCalls),
    rawFinishReason: rawFinish,
    usage: usageOf(usage),
    ...extras(toolCalls, reasoning),
    requestBody,
    rawResponse: chunks,
    status: res.status,
    model,
  };
}

/** Tool calls and reasoning, present only when the reply had them. */
function extras(toolCalls: ToolCall[], reasoning: string): Pick<ModelResponse, 'toolCalls' | 'reasoning'> {
  return { ...(toolCalls.length > 0 ? { toolCalls } : {}), ...(reasoning ? { reasoning } : {}) };
}

function mapFinishReason(raw: string | null, toolCalls: ToolCall[]): FinishReason {
  switch (raw) {
    case 'stop':
      // A call forced by naming the function ends with `stop`: the calls say what happened.
      return toolCalls.length > 0 ? 'tool_calls' : 'stop';
    case 'length':
      return 'length';
    case 'content_filter':
      return 'content_filter';
    case 'tool_calls':
    case 'function_call':
      return 'tool_calls';
    default:
      return 'other';
  }
}

function usageOf(usage: unknown): TokenUsage {
  if (!isRecord(usage)) return { inputTokens: 0, outputTokens: 0 };
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  const out: TokenUsage = { inputTokens: num(usage.prompt_tokens), outputTokens: num(usage.completion_tokens) };
  const cached = isRecord(usage.prompt_tokens_details) ? usage.prompt_tokens_details.cached_tokens : undefined;
  const reasoning = isRecord(usage.completion_tokens_details) ? usage.completion_tokens_details.reasoning_tokens : undefined;
  // Kept only when reported, so "none reported" and "zero" stay apart in the trace.
  if (typeof cached === 'number') out.cachedInputTokens = cached;
  if (typeof reasoning === 'number') out.reasoningTokens = reasoning;
  return out;
}

interface OpenAIErrorFields {
  message: string;
  type: string;
  code: string;
}

function errorFields(body: unknown): OpenAIErrorFields | null {
  if (!isRecord(body) || !isRecord(body.error)) return null;
  const e = body.error;
  const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
  return { message: str(e.message), type: str(e.type), code: str(e.code) };
}

function codeForStatus(status: number, fields: OpenAIErrorFields | null): ProviderErrorCode {
  const quota = fields !== null && (fields.code === 'insufficient_quota' || fields.type === 'insufficient_quota');
  if (status === 401 || status === 403) return 'auth';
  // A 429 is either "slow down" (retry helps) or "out of money" (it never will).
  if (status === 429) return quota ? 'quota_exceeded' : 'rate_limited';
  if (status === 529) return 'overloaded';
  if (status === 404) return 'not_found';
  if (status === 408) return 'timeout';
  if (status >= 500) return 'server_error';
  if (quota) return 'quota_exceeded';
  return 'bad_request';
}

/** An error body inside a 200 (or a stream chunk): classify by its type/code. */
function codeForBody(fields: OpenAIErrorFields): ProviderErrorCode {
  const tag = `${fields.type} ${fields.code}`;
  if (/insufficient_quota/.test(tag)) return 'quota_exceeded';
  // Real rate-limit bodies carry type `tokens` or `requests` and code `rate_limit_exceeded`.
  if (/rate_limit/.test(tag) || fields.type === 'tokens' || fields.type === 'requests') return 'rate_limited';
  if (/overloaded/.test(tag)) return 'overloaded';
  if (/server_error|internal/.test(tag)) return 'server_error';
  if (/invalid_api_key|authentication|permission/.test(tag)) return 'auth';
  if (/invalid_request/.test(tag)) return 'bad_request';
  return 'bad_response';
}

function describeError(status: number | null, fields: OpenAIErrorFields | null, text: string): string {
  const prefix = status === null ? 'in stream' : String(status);
  if (!fields) return `${prefix}: ${snippet(text) || '(empty body)'}`;
  const tag = fields.code || fields.type;
  return `${prefix}${tag ? ` ${tag}` : ''}: ${fields.message || '(no message)'}`;
}

function openAIHttpError(res: Response, text: string): ProviderError {
  const body = parseJson(text);
  const fields = errorFields(body);
  return new ProviderError(codeForStatus(res.status, fields), describeError(res.status, fields, text), {
    status: res.status,
    retryAfterMs: retryAfterFromHeaders(res.headers),
    body: body ?? text,
  });
}

function openAIBodyError(body: Record<string, unknown>, status: number | null): ProviderError {
  const fields = errorFields(body) ?? { message: '', type: '', code: '' };
  return new ProviderError(codeForBody(fields), describeError(status, fields, ''), { status, body });
}
