/**
 * Scripted replies for the mock model server. One FIFO queue serves both protocols, so a
 * test can script "429 then success" without caring which provider is on the other end.
 */

export type MockFinishReason = 'stop' | 'length' | 'refusal' | 'content_filter' | 'tool_calls';

/** A tool call a scripted reply makes; `arguments` as an object is sent as its JSON text. */
export interface MockToolCallReply {
  /** Default: a fresh id in the protocol's shape (`call_…`, `toolu_…`). */
  id?: string;
  name: string;
  arguments: string | Record<string, unknown>;
}

export interface MockContentReply {
  /** An object is sent as its JSON text, as a model following a schema would. Empty beside tool calls is normal. */
  content: string | Record<string, unknown> | unknown[];
  /** Tool calls after the text; the finish reason then defaults to `tool_calls` (Anthropic `tool_use`). */
  toolCalls?: MockToolCallReply[];
  /** Reasoning before the answer: Anthropic `thinking` block, OpenAI-compatible `reasoning_content` (DeepSeek). */
  reasoning?: string;
  finishReason?: MockFinishReason;
  usage?: { inputTokens?: number; outputTokens?: number; cachedInputTokens?: number; reasoningTokens?: number };
  /** Wait this long before answering (a slow model). */
  delayMs?: number;
}

export type MockFaultReply =
  /** An HTTP error; the body defaults to that protocol's real error body for the status. */
  | { fault: 'status'; status: number; retryAfter?: string; headers?: Record<string, string>; body?: unknown }
  /**
   * Out of money. OpenAI: 429 `insufficient_quota`. Anthropic: its real spend-limit answer,
   * a 400 invalid_request_error "Your credit balance is too low…" (status overridable).
   */
  | { fault: 'quota'; status?: number }
  /** 200 whose body is not JSON (in a stream: one chunk that is not JSON). */
  | { fault: 'invalid_json' }
  /**
   * Close the socket after this many SSE events (non-streaming: mid-body), with no terminator.
   * `content` is the answer being cut (default a fixed sentence), so a test can tell its prefix.
   * `clean` ends the response properly instead (a proxy that closes the chunked body on time):
   * only the missing terminator and finish reason tell the cut.
   */
  | { fault: 'cut_stream'; afterChunks: number; content?: string; clean?: boolean }
  /** A mid-stream error event after this many events (OpenAI `data: {error}`, Anthropic `event: error`). */
  | { fault: 'stream_error'; afterChunks?: number; content?: string }
  /** 200, `application/json`, a correct content-length, and no bytes: a proxy that dropped the body. */
  | { fault: 'empty_body' }
  /** 200 `text/html` (a captive portal or login page in front of the endpoint), whatever was asked. */
  | { fault: 'html_page' }
  /** 200 whose complete body is the protocol's error object for `status` (default 500), as some gateways answer. */
  | { fault: 'error_in_200'; status?: number }
  /** A whole 200 answer (right content-length) whose JSON stops half way: a server that wrote a cut buffer. */
  | { fault: 'truncated_json' }
  /** Wait, then answer as the default responder would. */
  | { fault: 'delay'; delayMs: number }
  /** Never answer (for timeouts); the socket stays open until the client gives up. */
  | { fault: 'hang' }
  /** The model declines: OpenAI `message.refusal`, Anthropic `stop_reason: refusal`. */
  | { fault: 'refusal'; message?: string }
  /**
   * A careless or hostile endpoint that echoes the key it was sent: in the error message and
   * body (status >= 400, default 401) or in the answer text (status 200), and always in
   * response headers. For proving keys never reach a record.
   */
  | { fault: 'echo_key'; status?: number };

/**
 * Keys a reply to the request it answers, not to the order requests arrive in: a reply with
 * `match` answers only a request whose messages (system prompt included) contain that text,
 * the earliest such reply first. Requests no keyed reply matches take the unkeyed replies in
 * queue order. With calls in flight at once (map units, fan-out steps) a script stays
 * deterministic by keying each reply to a marker in its prompt, such as the unit's content.
 */
export interface MockMatch {
  match?: string;
}

export type MockReply = (MockContentReply | MockFaultReply) & MockMatch;

export type MockProtocol = 'openai' | 'anthropic';

/** A tool the request declared: its name and the JSON Schema its arguments must satisfy. */
export interface MockTool {
  name: string;
  schema: Record<string, unknown>;
}

/**
 * The request's tool choice, protocol-neutral: OpenAI `auto|none|required|{function}`,
 * Anthropic `{type: auto|none|any|tool}`. `required` is OpenAI `required` and Anthropic `any`.
 */
export type MockToolChoice = { type: 'auto' } | { type: 'none' } | { type: 'required' } | { type: 'tool'; name: string };

/** What the mock understood of a valid request, protocol-neutral. */
export interface MockCall {
  protocol: MockProtocol;
  model: string;
  /** System prompt first (Anthropic's top-level `system` becomes a system message). */
  messages: { role: string; content: string }[];
  /** From `response_format.json_schema.schema` or `output_config.format.schema`. */
  schema: Record<string, unknown> | null;
  stream: boolean;
  /** OpenAI `stream_options.include_usage`; Anthropic streams always carry usage. */
  includeUsage: boolean;
  /** Declared tools, in order; empty when none. */
  tools: MockTool[];
  toolChoice: MockToolChoice;
  /** The output cap the request set (`max_tokens`, `max_completion_tokens`); null when none. */
  maxTokens: number | null;
  /** OpenAI `n`: how many choices to answer with (1 for Anthropic). */
  choices: number;
  /** Anthropic `anthropic-version` (the Message shape follows it); null for OpenAI. */
  apiVersion: string | null;
  body: Record<string, unknown>;
}

export type MockResponder = (call: MockCall) => MockReply | Promise<MockReply>;

export interface RecordedRequest {
  protocol: MockProtocol | 'unknown';
  method: string;
  path: string;
  /** Lower-cased; `authorization` and `x-api-key` are present but read '[redacted]'. */
  headers: Record<string, string>;
  /** Parsed JSON, or the raw text when it was not JSON. */
  body: unknown;
  /** The body exactly as sent (UTF-8 decoded), for byte-for-byte comparisons; null when too large. */
  rawBody: string | null;
}

/** A tool call ready to render: id assigned, arguments as JSON text. */
export interface MockToolCallOut {
  id: string;
  name: string;
  arguments: string;
}

/** The completed answer a protocol module renders, as a body or as stream events. */
export interface MockCompletion {
  text: string;
  finish: MockFinishReason;
  /** Set when the model refuses: the refusal wording (OpenAI `refusal`, Anthropic stop_details). */
  refusal: string | null;
  toolCalls: MockToolCallOut[];
  reasoning: string | null;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  reasoningTokens: number;
}

export interface SseEventOut {
  event?: string;
  data: string;
}

export type CheckResult =
  | { ok: true; call: MockCall }
  | { ok: false; status: number; body: unknown };

/** What each protocol module provides to the shared server. */
export interface ProtocolModule {
  protocol: MockProtocol;
  /** Auth, headers and body validation, in the order the real endpoint applies them. */
  check(headers: Record<string, string | undefined>, rawBody: string, apiKey: string | undefined): CheckResult;
  /** The real error body for an HTTP status. */
  errorBody(status: number): unknown;
  quotaError(): { status: number; body: unknown };
  /** Headers every answer carries (request ids). */
  responseHeaders(): Record<string, string>;
  /** Headers an error status carries by default (e.g. Anthropic's `retry-after` on 429/529). */
  statusHeaders(status: number): Record<string, string>;
  completion(call: MockCall, out: MockCompletion): unknown;
  streamEvents(call: MockCall, out: MockCompletion): SseEventOut[];
  /** Whether the protocol ends a stream with `data: [DONE]` after the events. */
  streamTerminator: string | null;
  streamErrorEvent(): SseEventOut;
  /** A 200 body that looks like the start of a completion but is not JSON. */
  invalidJsonBody(call: MockCall): string;
  /** The stream event to send in place of the second one when a stream must carry bad JSON. */
  invalidJsonEvent(events: SseEventOut[]): SseEventOut;
  /** The prefix a tool-call id of this protocol has (`call_`, `toolu_`). */
  toolCallId(): string;
}

/** ~4 characters per token: crude, but the same rule everywhere in the mock. */
export function approxTokens(text: string): number {
  return text.length === 0 ? 0 : Math.max(1, Math.ceil(text.length / 4));
}

/** Splits into ~4-character deltas on code-point boundaries (never half a surrogate pair). */
export function splitDeltas(text: string, size = 4): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}
