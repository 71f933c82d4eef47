import { Invalid, isObject, randomId } from './mock-validate.ts';
import { splitDeltas, type CheckResult, type MockCall, type MockCompletion, type ProtocolModule, type SseEventOut } from './mock-types.ts';

/**
 * The Anthropic Messages API as the mock speaks it. Shapes follow the corpus schema
 * (anthropic-messages.schema.json) and the recorded streams; validation messages use the
 * API's `field: problem` wording.
 */

export function anthropicError(type: string, message: string): Record<string, unknown> {
  return { type: 'error', error: { type, message }, request_id: requestId() };
}

function invalid(message: string): Invalid {
  return new Invalid(400, anthropicError('invalid_request_error', message));
}

function requestId(): string {
  return randomId('req_011C', 20);
}

const KNOWN_FIELDS = new Set([
  'model', 'max_tokens', 'messages', 'system', 'temperature', 'top_p', 'top_k', 'stop_sequences', 'stream', 'tools', 'tool_choice',
  'thinking', 'output_config', 'metadata', 'service_tier', 'cache_control', 'container', 'inference_geo', 'mcp_servers', 'context_management',
]);

const VERSIONS = new Set(['2023-06-01', '2023-01-01']);

function checkHeaders(headers: Record<string, string | undefined>, apiKey: string | undefined): void {
  // The real API refuses calls from a web page unless the page opts in with this header.
  if (headers.origin && headers['anthropic-dangerous-direct-browser-access'] !== 'true') {
    throw new Invalid(401, anthropicError('authentication_error', "CORS requests must set 'anthropic-dangerous-direct-browser-access' header"));
  }
  if (apiKey !== undefined) {
    const given = headers['x-api-key'];
    if (!given) throw new Invalid(401, anthropicError('authentication_error', 'x-api-key header is required'));
    if (given !== apiKey) throw new Invalid(401, anthropicError('authentication_error', 'invalid x-api-key'));
  }
  const version = headers['anthropic-version'];
  if (!version) throw invalid('anthropic-version: header is required');
  if (!VERSIONS.has(version)) throw invalid(`anthropic-version: invalid version "${version}"`);
}

function blocksText(content: unknown, at: string): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) throw invalid(`${at}: Input should be a valid list`);
  return content
    .map((block: unknown, i) => {
      if (!isObject(block)) throw invalid(`${at}.${i}: Input should be a valid dictionary`);
      if (typeof block.type !== 'string') throw invalid(`${at}.${i}.type: Field required`);
      if (block.type !== 'text') return '';
      if (typeof block.text !== 'string') throw invalid(`${at}.${i}.text: Input should be a valid string`);
      if (block.text === '') throw invalid('messages: text content blocks must be non-empty');
      return block.text;
    })
    .join('');
}

function checkMessages(messages: unknown): { role: string; content: string }[] {
  if (messages === undefined) throw invalid('messages: Field required');
  if (!Array.isArray(messages)) throw invalid('messages: Input should be a valid list');
  if (messages.length === 0) throw invalid('messages: at least one message is required');
  const out = messages.map((m: unknown, i) => {
    if (!isObject(m)) throw invalid(`messages.${i}: Input should be a valid dictionary`);
    if (m.role === undefined) throw invalid(`messages.${i}.role: Field required`);
    if (m.role !== 'user' && m.role !== 'assistant') throw invalid(`messages.${i}.role: Input should be 'user' or 'assistant'`);
    if (m.content === undefined) throw invalid(`messages.${i}.content: Field required`);
    const text = blocksText(m.content, `messages.${i}.content`);
    const isFinalAssistant = i === messages.length - 1 && m.role === 'assistant';
    if ((m.content === '' || (Array.isArray(m.content) && m.content.length === 0)) && !isFinalAssistant) {
      throw invalid(`messages.${i}: all messages must have non-empty content except for the optional final assistant message`);
    }
    return { role: m.role, content: text };
  });
  if (out[0]?.role !== 'user') throw invalid('messages: first message must use the "user" role');
  for (let i = 1; i < out.length; i++) {
    // Wording as in the corpus example error body.
    if (out[i]?.role === out[i - 1]?.role) throw invalid('messages: roles must alternate between "user" and "assistant"');
  }
  return out;
}

function checkOutputConfig(oc: unknown): Record<string, unknown> | null {
  if (oc === undefined || oc === null) return null;
  if (!isObject(oc)) throw invalid('output_config: Input should be a valid dictionary');
  const format = oc.format;
  if (format === undefined || format === null) return null;
  if (!isObject(format)) throw invalid('output_config.format: Input should be a valid dictionary');
  if (format.type !== 'json_schema') throw invalid("output_config.format.type: Input should be 'json_schema'");
  if (format.schema === undefined) throw invalid('output_config.format.schema: Field required');
  if (!isObject(format.schema)) throw invalid('output_config.format.schema: Input should be a valid dictionary');
  return format.schema;
}

function checkBody(rawBody: string): MockCall {
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    throw invalid('There was an issue with the formatting of your request: the body is not valid JSON');
  }
  if (!isObject(body)) throw invalid('Input should be a valid dictionary');
  const extra = Object.keys(body).find((k) => !KNOWN_FIELDS.has(k));
  if (extra) throw invalid(`${extra}: Extra inputs are not permitted`);
  if (body.model === undefined) throw invalid('model: Field required');
  if (typeof body.model !== 'string' || body.model === '') throw invalid('model: Input should be a valid string');
  if (body.max_tokens === undefined) throw invalid('max_tokens: Field required');
  if (typeof body.max_tokens !== 'number' || !Number.isInteger(body.max_tokens)) throw invalid('max_tokens: Input should be a valid integer');
  if (body.max_tokens < 1) throw invalid('max_tokens: Input should be greater than or equal to 1');
  const messages = checkMessages(body.messages);
  let system = '';
  if (body.system !== undefined) {
    if (typeof body.system !== 'string' && !Array.isArray(body.system)) throw invalid('system: Input should be a valid string');
    system = blocksText(body.system, 'system');
  }
  if (body.temperature !== undefined) {
    if (typeof body.temperature !== 'number') throw invalid('temperature: Input should be a valid number');
    if (body.temperature < 0) throw invalid('temperature: Input should be greater than or equal to 0');
    if (body.temperature > 1) throw invalid('temperature: Input should be less than or equal to 1');
  }
  if (body.stream !== undefined && typeof body.stream !== 'boolean') throw invalid('stream: Input should be a valid boolean');
  const schema = checkOutputConfig(body.output_config);
  return {
    protocol: 'anthropic',
    model: body.model,
    messages: system ? [{ role: 'system', content: system }, ...messages] : messages,
    schema,
    stream: body.stream === true,
    includeUsage: true,
    body,
  };
}

function stopReasonOf(out: MockCompletion): string {
  switch (out.finish) {
    case 'length':
      return 'max_tokens';
    // No content-filter stop exists here: Anthropic's classifiers answer with a refusal.
    case 'refusal':
    case 'content_filter':
      return 'refusal';
    default:
      return 'end_turn';
  }
}

function stopDetailsOf(out: MockCompletion): Record<string, unknown> | undefined {
  if (stopReasonOf(out) !== 'refusal') return undefined;
  return { type: 'refusal', category: null, explanation: out.refusal ?? out.text };
}

function messageId(): string {
  return randomId('msg_01', 22);
}

export const anthropicModule: ProtocolModule = {
  protocol: 'anthropic',
  streamTerminator: null,

  check(headers, rawBody, apiKey): CheckResult {
    try {
      checkHeaders(headers, apiKey);
      return { ok: true, call: checkBody(rawBody) };
    } catch (err) {
      if (err instanceof Invalid) return { ok: false, status: err.status, body: err.body };
      throw err;
    }
  },

  errorBody(status) {
    switch (status) {
      case 400:
        return anthropicError('invalid_request_error', 'messages: roles must alternate between "user" and "assistant"');
      case 401:
        return anthropicError('authentication_error', 'invalid x-api-key');
      case 402:
        return anthropicError('billing_error', 'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.');
      case 403:
        return anthropicError('permission_error', 'Your API key does not have permission to use the specified resource.');
      case 404:
        return anthropicError('not_found_error', 'model: claude-mock');
      case 413:
        return anthropicError('request_too_large', 'Request exceeds the maximum allowed number of bytes.');
      case 429:
        return anthropicError(
          'rate_limit_error',
          'This request would exceed the rate limit for your organization of 50 requests per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits. You can see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later.',
        );
      case 529:
        // Recorded shape (corpus x-examples.overloaded_error_body_recorded).
        return { type: 'error', error: { details: null, type: 'overloaded_error', message: 'Overloaded' }, request_id: requestId() };
      default:
        return anthropicError(status >= 500 ? 'api_error' : 'invalid_request_error', status >= 500 ? 'Internal server error' : `Mock error ${status}`);
    }
  },

  quotaError() {
    // Anthropic reports an exhausted balance as a plain 400 (seen in real traffic), not a 429.
    return {
      status: 400,
      body: anthropicError('invalid_request_error', 'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.'),
    };
  },

  responseHeaders() {
    return { 'request-id': requestId(), 'anthropic-organization-id': '00000000-0000-4000-8000-000000000000' };
  },

  completion(call, out) {
    const details = stopDetailsOf(out);
    return {
      model: call.model,
      id: messageId(),
      type: 'message',
      role: 'assistant',
      content: out.text ? [{ type: 'text', text: out.text }] : [],
      stop_reason: stopReasonOf(out),
      stop_sequence: null,
      ...(details ? { stop_details: details } : {}),
      usage: { input_tokens: out.inputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: out.outputTokens, service_tier: 'standard' },
    };
  },

  streamEvents(call, out) {
    const events: SseEventOut[] = [];
    const push = (payload: { type: string } & Record<string, unknown>) => events.push({ event: payload.type, data: JSON.stringify(payload) });
    push({
      type: 'message_start',
      message: {
        model: call.model,
        id: messageId(),
        type: 'message',
        role: 'assistant',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: out.inputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1, service_tier: 'standard' },
      },
    });
    if (out.text) {
      push({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
      push({ type: 'ping' });
      for (const piece of splitDeltas(out.text)) push({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: piece } });
      push({ type: 'content_block_stop', index: 0 });
    } else {
      push({ type: 'ping' });
    }
    const details = stopDetailsOf(out);
    push({
      type: 'message_delta',
      delta: { stop_reason: stopReasonOf(out), stop_sequence: null, ...(details ? { stop_details: details } : {}) },
      usage: { output_tokens: out.outputTokens },
    });
    push({ type: 'message_stop' });
    return events;
  },

  streamErrorEvent() {
    return { event: 'error', data: JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }) };
  },

  invalidJsonBody(call) {
    return `{"model":"${call.model}","id":"${messageId()}","type":"message","role":"assistant","content":[{"type":"text","text":"not json {`;
  },
};
