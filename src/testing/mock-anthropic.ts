import { Invalid, randomId } from './mock-validate.ts';
import { checkBody, checkHeaders } from './mock-anthropic-request.ts';
import { anthropicError, messageBody, messageEvents, requestId, toolUseId } from './mock-anthropic-shape.ts';
import { approxTokens, type CheckResult, type ProtocolModule } from './mock-types.ts';

export { anthropicError } from './mock-anthropic-shape.ts';

/**
 * The Anthropic Messages API as the mock speaks it: validation in mock-anthropic-request.ts,
 * the Message shapes in mock-anthropic-shape.ts, error bodies and headers here. Shapes follow
 * the corpus schema (anthropic-messages.schema.json), the recorded streams and the types of
 * @anthropic-ai/sdk; validation messages use the API's `field: problem` wording.
 */

/**
 * Seconds a 429 or 529 asks the client to wait. The API sends retry-after with its 429s (corpus
 * llm-protocol-facts.json); on 529 the mock sends it too, so SDK retries wait a known time.
 */
const DEFAULT_RETRY_AFTER = '1';

export const anthropicModule: ProtocolModule = {
  protocol: 'anthropic',
  streamTerminator: null,

  check(headers, rawBody, apiKey): CheckResult {
    try {
      const version = checkHeaders(headers, apiKey);
      return { ok: true, call: checkBody(rawBody, version) };
    } catch (err) {
      if (err instanceof Invalid) return { ok: false, status: err.status, body: err.body };
      throw err;
    }
  },

  errorBody(status) {
    switch (status) {
      case 400:
        return anthropicError('invalid_request_error', 'messages: Field required');
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

  statusHeaders(status): Record<string, string> {
    return status === 429 || status === 529 ? { 'retry-after': DEFAULT_RETRY_AFTER } : {};
  },

  responseHeaders() {
    return { 'request-id': requestId(), 'anthropic-organization-id': '00000000-0000-4000-8000-000000000000' };
  },

  completion: messageBody,
  streamEvents: messageEvents,

  streamErrorEvent() {
    return { event: 'error', data: JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }) };
  },

  invalidJsonBody(call) {
    return `{"model":"${call.model}","id":"${randomId('msg_01', 22)}","type":"message","role":"assistant","content":[{"type":"text","text":"not json {`;
  },

  invalidJsonEvent() {
    // An Anthropic text delta cut inside its JSON, under its own event name.
    return { event: 'content_block_delta', data: '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"not json {' };
  },

  toolCallId: toolUseId,
};

/**
 * `POST /v1/messages/count_tokens`: the same validation as a create (minus the generation
 * fields), answered with `{input_tokens}` by the mock's one token rule (tools count too).
 */
export function countTokens(headers: Record<string, string | undefined>, rawBody: string, apiKey: string | undefined): { status: number; body: unknown } {
  try {
    const call = checkBody(rawBody, checkHeaders(headers, apiKey), true);
    const text = call.messages.map((m) => m.content).join('\n') + call.tools.map((t) => t.name + JSON.stringify(t.schema)).join('');
    return { status: 200, body: { input_tokens: approxTokens(text) } };
  } catch (err) {
    if (err instanceof Invalid) return { status: err.status, body: err.body };
    throw err;
  }
}
