import type { ServerResponse } from 'node:http';
import {
  approxTokens,
  type MockCall,
  type MockCompletion,
  type MockContentReply,
  type MockReply,
  type ProtocolModule,
  type SseEventOut,
} from './mock-types.ts';
import { toolCallsOut } from './mock-tools.ts';

/**
 * Turns one scripted reply into bytes on the wire: normal answers (JSON or SSE) and every
 * fault the providers must survive (error statuses, garbage bodies, cut streams, hangs).
 */

export interface ReplyContext {
  module: ProtocolModule;
  call: MockCall;
  res: ServerResponse;
  /** CORS and request-id headers every answer carries. */
  headers: Record<string, string>;
  /** The reply used after a `delay` fault: the responder or the demo model. */
  fallback: () => Promise<MockReply>;
  /** Registers a response that must never be answered (`hang`), so close() can drop it. */
  hang: (res: ServerResponse) => void;
  /** The key the request carried (Bearer or x-api-key), for `echo_key` only. */
  sentKey: string;
}

const DEFAULT_REFUSAL = "I'm sorry, but I can't help with that request.";

function promptTokens(call: MockCall): number {
  return approxTokens(call.messages.map((m) => m.content).join('\n'));
}

export function completionOf(call: MockCall, reply: MockContentReply, newId: () => string = () => 'call_mock'): MockCompletion {
  let text = typeof reply.content === 'string' ? reply.content : JSON.stringify(reply.content);
  let toolCalls = toolCallsOut(reply.toolCalls, newId);
  let finish = reply.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop');
  const reasoning = reply.reasoning ?? null;
  let outputTokens = reply.usage?.outputTokens ?? approxTokens(text + toolCalls.map((t) => t.arguments).join('') + (reasoning ?? ''));
  // The real APIs stop at the output cap the request set. Only an unscripted finish is cut:
  // a script that names its finish reason gets exactly what it asked for.
  if (reply.finishReason === undefined && call.maxTokens !== null && outputTokens > call.maxTokens) {
    text = Array.from(text).slice(0, call.maxTokens * 4).join('');
    // A tool call cut by the cap is not sent whole: the answer ends in its text (as a cut
    // tool JSON would be useless to render here; the recorded cut-tool stream covers that).
    toolCalls = [];
    outputTokens = call.maxTokens;
    finish = 'length';
  }
  return {
    text,
    finish,
    refusal: finish === 'refusal' ? text : null,
    toolCalls,
    reasoning,
    inputTokens: reply.usage?.inputTokens ?? promptTokens(call),
    outputTokens,
    cachedInputTokens: reply.usage?.cachedInputTokens ?? 0,
    reasoningTokens: reply.usage?.reasoningTokens ?? (reasoning ? approxTokens(reasoning) : 0),
  };
}

function refusalOf(call: MockCall, message: string): MockCompletion {
  return { text: '', finish: 'refusal', refusal: message, toolCalls: [], reasoning: null, inputTokens: promptTokens(call), outputTokens: approxTokens(message), cachedInputTokens: 0, reasoningTokens: 0 };
}

/** Resolves true after `ms`, or false as soon as the client has gone away. */
export function wait(ms: number, res: ServerResponse): Promise<boolean> {
  return new Promise((resolve) => {
    if (res.destroyed) return resolve(false);
    const onClose = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      res.off('close', onClose);
      resolve(!res.destroyed);
    }, ms);
    res.once('close', onClose);
  });
}

function write(res: ServerResponse, chunk: string): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed) return resolve();
    res.write(chunk, () => resolve());
  });
}

export function sendBody(res: ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
  const isText = typeof body === 'string';
  const text = isText ? body : JSON.stringify(body);
  res.writeHead(status, { ...headers, 'content-type': isText ? 'text/html; charset=utf-8' : 'application/json', 'content-length': String(Buffer.byteLength(text)) });
  res.end(text);
}

function sendJsonText(res: ServerResponse, text: string, headers: Record<string, string>): void {
  res.writeHead(200, { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
  res.end(text);
}

function frame(event: SseEventOut): string {
  return `${event.event ? `event: ${event.event}\n` : ''}data: ${event.data}\n\n`;
}

function startStream(res: ServerResponse, headers: Record<string, string>): void {
  res.writeHead(200, { ...headers, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
  // Headers go out now, as a real server's do before the first token: a cut after zero
  // events is then a broken stream, not a refused connection.
  res.flushHeaders();
}

async function writeEvents(res: ServerResponse, events: SseEventOut[]): Promise<void> {
  for (const event of events) await write(res, frame(event));
}

async function sendStream(ctx: ReplyContext, out: MockCompletion): Promise<void> {
  startStream(ctx.res, ctx.headers);
  await writeEvents(ctx.res, ctx.module.streamEvents(ctx.call, out));
  if (ctx.module.streamTerminator) await write(ctx.res, frame({ data: ctx.module.streamTerminator }));
  ctx.res.end();
}

/** How many events may go out before a cut so that the stream is really incomplete. */
function cutPoint(ctx: ReplyContext, events: SseEventOut[], wanted: number): number {
  // Anthropic's last event (message_stop) is its terminator; OpenAI's [DONE] is separate.
  const max = ctx.module.streamTerminator ? events.length : events.length - 1;
  return Math.max(0, Math.min(wanted, max));
}

export const DEFAULT_CUT_TEXT = 'This answer is cut off before it ends properly.';

async function cutStream(ctx: ReplyContext, afterChunks: number, content = DEFAULT_CUT_TEXT, clean = false): Promise<void> {
  const out = completionOf(ctx.call, { content });
  if (ctx.call.stream) {
    const events = ctx.module.streamEvents(ctx.call, out);
    startStream(ctx.res, ctx.headers);
    await writeEvents(ctx.res, events.slice(0, cutPoint(ctx, events, afterChunks)));
  } else {
    // Promise the full length, deliver half: the client's body read fails.
    const text = JSON.stringify(ctx.module.completion(ctx.call, out));
    ctx.res.writeHead(200, { ...ctx.headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
    await write(ctx.res, text.slice(0, Math.floor(text.length / 2)));
  }
  if (clean && ctx.call.stream) {
    ctx.res.end();
    return;
  }
  // Let everything written so far reach the client, then destroy (not end) the socket so no
  // terminating chunk is sent: the connection just drops.
  const socket = ctx.res.socket;
  if (socket && !socket.destroyed) await new Promise<void>((resolve) => socket.write('', () => resolve()));
  socket?.destroy();
}

async function streamError(ctx: ReplyContext, afterChunks: number, content = 'This answer fails part way through.'): Promise<void> {
  const out = completionOf(ctx.call, { content });
  if (!ctx.call.stream) {
    // Without a stream there is no mid-answer error: the status says it.
    sendBody(ctx.res, 529, ctx.module.errorBody(529), ctx.headers);
    return;
  }
  const events = ctx.module.streamEvents(ctx.call, out);
  startStream(ctx.res, ctx.headers);
  await writeEvents(ctx.res, events.slice(0, cutPoint(ctx, events, afterChunks)));
  await write(ctx.res, frame(ctx.module.streamErrorEvent()));
  ctx.res.end();
}

async function invalidJson(ctx: ReplyContext): Promise<void> {
  if (!ctx.call.stream) {
    sendJsonText(ctx.res, ctx.module.invalidJsonBody(ctx.call), ctx.headers);
    return;
  }
  const events = ctx.module.streamEvents(ctx.call, completionOf(ctx.call, { content: 'not json {' }));
  startStream(ctx.res, ctx.headers);
  await writeEvents(ctx.res, events.slice(0, 1));
  // In the protocol's own event shape, so only the JSON is wrong (not the framing or the kind).
  await write(ctx.res, frame(ctx.module.invalidJsonEvent(events)));
  ctx.res.end();
}

/** Echoes the key the request carried, everywhere a careless endpoint might. */
async function echoKey(ctx: ReplyContext, status: number): Promise<void> {
  const key = ctx.sentKey;
  const headers = { ...ctx.headers, 'x-echo-api-key': key, 'www-authenticate': `Bearer realm="${key}"`, 'x-debug-authorization': `Bearer ${key}` };
  if (status < 400) {
    const out = completionOf(ctx.call, { content: `The key you sent is ${key} (Authorization: Bearer ${key})` });
    if (ctx.call.stream) await sendStream({ ...ctx, headers }, out);
    else sendBody(ctx.res, 200, ctx.module.completion(ctx.call, out), headers);
    return;
  }
  const message = `Incorrect API key provided: ${key}. You sent Authorization: Bearer ${key} / x-api-key: ${key}`;
  const body = ctx.module.protocol === 'anthropic'
    ? { type: 'error', error: { type: status === 401 ? 'authentication_error' : 'api_error', message }, echoed: { 'x-api-key': key } }
    : { error: { message, type: 'invalid_request_error', param: null, code: status === 401 ? 'invalid_api_key' : 'server_error' }, echoed: { authorization: `Bearer ${key}` } };
  sendBody(ctx.res, status, body, headers);
}

export async function performReply(ctx: ReplyContext, reply: MockReply): Promise<void> {
  const { res, module, call, headers } = ctx;
  if (!('fault' in reply)) {
    if (reply.delayMs && !(await wait(reply.delayMs, res))) return;
    const out = completionOf(call, reply, () => module.toolCallId());
    if (call.stream) await sendStream(ctx, out);
    else sendBody(res, 200, module.completion(call, out), headers);
    return;
  }
  switch (reply.fault) {
    case 'status': {
      const extra: Record<string, string> = { ...module.statusHeaders(reply.status), ...reply.headers };
      if (reply.retryAfter !== undefined) extra['retry-after'] = reply.retryAfter;
      sendBody(res, reply.status, reply.body ?? module.errorBody(reply.status), { ...headers, ...extra });
      return;
    }
    case 'quota': {
      const quota = module.quotaError();
      sendBody(res, reply.status ?? quota.status, quota.body, headers);
      return;
    }
    case 'invalid_json':
      return invalidJson(ctx);
    case 'cut_stream':
      return cutStream(ctx, reply.afterChunks, reply.content, reply.clean);
    case 'stream_error':
      return streamError(ctx, reply.afterChunks ?? 1, reply.content);
    case 'empty_body':
      res.writeHead(200, { ...headers, 'content-type': 'application/json', 'content-length': '0' });
      res.end();
      return;
    case 'html_page':
      sendBody(res, 200, '<!doctype html><html><head><title>Sign in</title></head><body><form action="/login"><input name="user"></form></body></html>', headers);
      return;
    case 'error_in_200':
      sendBody(res, 200, module.errorBody(reply.status ?? 500), headers);
      return;
    case 'truncated_json': {
      const text = JSON.stringify(module.completion(call, completionOf(call, { content: 'A complete answer whose body was cut.' })));
      sendJsonText(res, text.slice(0, Math.floor(text.length / 2)), headers);
      return;
    }
    case 'delay':
      if (!(await wait(reply.delayMs, res))) return;
      return performReply(ctx, await ctx.fallback());
    case 'hang':
      ctx.hang(res);
      return;
    case 'echo_key':
      return echoKey(ctx, reply.status ?? 401);
    case 'refusal': {
      const out = refusalOf(call, reply.message ?? DEFAULT_REFUSAL);
      if (call.stream) await sendStream(ctx, out);
      else sendBody(res, 200, module.completion(call, out), headers);
      return;
    }
  }
}

/** Checks a reply that came over the control API (another process scripting the mock). */
export function parseMockReply(value: unknown): MockReply {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('a reply must be an object');
  const r = value as Record<string, unknown>;
  const positive = (v: unknown, name: string) => {
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw new Error(`${name} must be a number >= 0`);
  };
  if (r.match !== undefined && (typeof r.match !== 'string' || r.match === '')) throw new Error('match must be a non-empty string');
  if ('fault' in r) {
    switch (r.fault) {
      case 'status':
        if (typeof r.status !== 'number' || !Number.isInteger(r.status) || r.status < 400 || r.status > 599) throw new Error('status must be an integer from 400 to 599');
        if (r.retryAfter !== undefined && typeof r.retryAfter !== 'string') throw new Error('retryAfter must be a string');
        break;
      case 'cut_stream':
        positive(r.afterChunks, 'afterChunks');
        if (r.content !== undefined && typeof r.content !== 'string') throw new Error('content must be a string');
        if (r.clean !== undefined && typeof r.clean !== 'boolean') throw new Error('clean must be a boolean');
        break;
      case 'delay':
        positive(r.delayMs, 'delayMs');
        break;
      case 'stream_error':
        if (r.afterChunks !== undefined) positive(r.afterChunks, 'afterChunks');
        break;
      case 'echo_key':
        if (r.status !== undefined && (typeof r.status !== 'number' || !Number.isInteger(r.status) || r.status < 200 || r.status > 599)) throw new Error('status must be an integer from 200 to 599');
        break;
      case 'error_in_200':
        if (r.status !== undefined && (typeof r.status !== 'number' || !Number.isInteger(r.status) || r.status < 400 || r.status > 599)) throw new Error('status must be an integer from 400 to 599');
        break;
      case 'quota':
      case 'invalid_json':
      case 'hang':
      case 'refusal':
      case 'empty_body':
      case 'html_page':
      case 'truncated_json':
        break;
      default:
        throw new Error(`unknown fault ${JSON.stringify(r.fault)}`);
    }
    return r as unknown as MockReply;
  }
  if (!('content' in r) || (typeof r.content !== 'string' && (typeof r.content !== 'object' || r.content === null))) {
    throw new Error('a reply needs `content` (string or JSON value) or `fault`');
  }
  if (r.finishReason !== undefined && !['stop', 'length', 'refusal', 'content_filter', 'tool_calls'].includes(r.finishReason as string)) {
    throw new Error('finishReason must be stop, length, refusal, content_filter or tool_calls');
  }
  if (r.reasoning !== undefined && typeof r.reasoning !== 'string') throw new Error('reasoning must be a string');
  if (r.toolCalls !== undefined) {
    if (!Array.isArray(r.toolCalls)) throw new Error('toolCalls must be an array');
    for (const c of r.toolCalls as unknown[]) {
      const call = (typeof c === 'object' && c !== null ? c : {}) as Record<string, unknown>;
      if (typeof call.name !== 'string' || call.name === '') throw new Error('each tool call needs a name');
      if (typeof call.arguments !== 'string' && (typeof call.arguments !== 'object' || call.arguments === null || Array.isArray(call.arguments))) {
        throw new Error('tool call arguments must be a JSON string or an object');
      }
      if (call.id !== undefined && typeof call.id !== 'string') throw new Error('a tool call id must be a string');
    }
  }
  if (r.delayMs !== undefined) positive(r.delayMs, 'delayMs');
  return r as unknown as MockReply;
}
