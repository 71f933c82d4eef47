import { Invalid, isObject, openAITypeName, randomId, strictSchemaProblem } from './mock-validate.ts';
import type { CheckResult, MockCall, ProtocolModule } from './mock-types.ts';
import { openAIError } from './mock-openai-error.ts';
import { completionBody, completionEvents, toolCallId } from './mock-openai-shape.ts';
import { checkToolChoice, checkToolOrder, checkTools, type ToolTurn } from './mock-openai-tools.ts';

/**
 * OpenAI Chat Completions as the mock speaks it. Shapes follow the corpus schema
 * (openai-chat-completions.schema.json) and the recorded responses; error wording follows
 * what the real endpoint answers.
 */

export { openAIError };

function invalid(message: string, param: string | null = null, code: string | null = null): Invalid {
  return new Invalid(400, openAIError(message, param, code));
}

/** Top-level request fields of CreateChatCompletionRequest; anything else is rejected. */
const KNOWN_FIELDS = new Set([
  'metadata', 'top_logprobs', 'temperature', 'top_p', 'user', 'safety_identifier', 'prompt_cache_key', 'prompt_cache_retention',
  'prompt_cache_options', 'messages', 'model', 'service_tier', 'modalities', 'verbosity', 'reasoning_effort', 'max_completion_tokens',
  'frequency_penalty', 'presence_penalty', 'web_search_options', 'response_format', 'audio', 'store', 'moderation', 'stream', 'stop',
  'logit_bias', 'logprobs', 'max_tokens', 'n', 'prediction', 'seed', 'stream_options', 'tools', 'tool_choice', 'parallel_tool_calls',
  'function_call', 'functions',
]);

const ROLES = ['system', 'assistant', 'user', 'function', 'tool', 'developer'];

function checkAuth(headers: Record<string, string | undefined>, apiKey: string | undefined): void {
  if (apiKey === undefined) return;
  const auth = headers.authorization;
  if (!auth) {
    throw new Invalid(
      401,
      openAIError(
        "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
        null,
        'invalid_api_key',
      ),
    );
  }
  const given = auth.replace(/^Bearer\s+/i, '');
  if (given !== apiKey) {
    const masked = given.length > 8 ? `${given.slice(0, 3)}*****${given.slice(-4)}` : '*****';
    throw new Invalid(401, openAIError(`Incorrect API key provided: ${masked}. You can find your API key at https://platform.openai.com/account/api-keys.`, null, 'invalid_api_key'));
  }
}

function messageText(content: unknown, param: string): string {
  if (typeof content === 'string') return content;
  if (content === null || content === undefined) return '';
  if (!Array.isArray(content)) {
    throw invalid(`Invalid type for '${param}': expected one of a string or array of objects, but got ${openAITypeName(content)} instead.`, param, 'invalid_type');
  }
  return content
    .map((part, i) => {
      if (!isObject(part)) throw invalid(`Invalid type for '${param}[${i}]': expected an object, but got ${openAITypeName(part)} instead.`, `${param}[${i}]`, 'invalid_type');
      if (typeof part.type !== 'string') throw invalid(`Missing required parameter: '${param}[${i}].type'.`, `${param}[${i}].type`, 'missing_required_parameter');
      return part.type === 'text' && typeof part.text === 'string' ? part.text : '';
    })
    .join('');
}

function checkMessages(messages: unknown): { role: string; content: string; turn: ToolTurn }[] {
  if (messages === undefined) throw invalid("Missing required parameter: 'messages'.", 'messages', 'missing_required_parameter');
  if (!Array.isArray(messages)) throw invalid(`Invalid type for 'messages': expected an array of objects, but got ${openAITypeName(messages)} instead.`, 'messages', 'invalid_type');
  if (messages.length === 0) throw invalid("Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.", 'messages', 'empty_array');
  return messages.map((m: unknown, i) => {
    const at = `messages[${i}]`;
    if (!isObject(m)) throw invalid(`Invalid type for '${at}': expected an object, but got ${openAITypeName(m)} instead.`, at, 'invalid_type');
    if (m.role === undefined) throw invalid(`Missing required parameter: '${at}.role'.`, `${at}.role`, 'missing_required_parameter');
    if (typeof m.role !== 'string' || !ROLES.includes(m.role)) {
      throw invalid(`Invalid value: '${String(m.role)}'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.`, `${at}.role`, 'invalid_value');
    }
    // Only an assistant turn (with tool calls) may omit its content.
    if (m.content === undefined && m.role !== 'assistant') throw invalid(`Missing required parameter: '${at}.content'.`, `${at}.content`, 'missing_required_parameter');
    const toolCallIds = Array.isArray(m.tool_calls) ? m.tool_calls.map((c: unknown) => String(isObject(c) ? c.id : '')) : [];
    if (m.role === 'tool' && typeof m.tool_call_id !== 'string') throw invalid(`Missing required parameter: '${at}.tool_call_id'.`, `${at}.tool_call_id`, 'missing_required_parameter');
    // Tool calls' arguments count as what the conversation says, so `match` can key on them.
    const args = Array.isArray(m.tool_calls) ? m.tool_calls.map((c: unknown) => (isObject(c) && isObject(c.function) ? String(c.function.arguments ?? '') : '')).join('\n') : '';
    const text = messageText(m.content, `${at}.content`);
    return {
      role: m.role === 'developer' ? 'system' : m.role,
      content: args ? (text ? `${text}\n${args}` : args) : text,
      turn: { role: m.role, toolCallIds, toolCallId: typeof m.tool_call_id === 'string' ? m.tool_call_id : null },
    };
  });
}

function checkInteger(body: Record<string, unknown>, key: string, min: number): void {
  const v = body[key];
  if (v === undefined || v === null) return;
  if (typeof v !== 'number' || !Number.isInteger(v)) throw invalid(`Invalid type for '${key}': expected an integer, but got ${openAITypeName(v)} instead.`, key, 'invalid_type');
  if (v < min) throw invalid(`Invalid '${key}': integer below minimum value. Expected a value >= ${min}, but got ${v} instead.`, key, 'integer_below_min_value');
}

function checkNumber(body: Record<string, unknown>, key: string, min: number, max: number): void {
  const v = body[key];
  if (v === undefined || v === null) return;
  if (typeof v !== 'number') throw invalid(`Invalid type for '${key}': expected a decimal, but got ${openAITypeName(v)} instead.`, key, 'invalid_type');
  if (v < min) throw invalid(`Invalid '${key}': decimal below minimum value. Expected a value >= ${min}, but got ${v} instead.`, key, 'decimal_below_min_value');
  if (v > max) throw invalid(`Invalid '${key}': decimal above maximum value. Expected a value <= ${max}, but got ${v} instead.`, key, 'decimal_above_max_value');
}

function checkResponseFormat(rf: unknown): Record<string, unknown> | null {
  if (rf === undefined || rf === null) return null;
  if (!isObject(rf)) throw invalid(`Invalid type for 'response_format': expected an object, but got ${openAITypeName(rf)} instead.`, 'response_format', 'invalid_type');
  if (rf.type === undefined) throw invalid("Missing required parameter: 'response_format.type'.", 'response_format.type', 'missing_required_parameter');
  if (rf.type === 'text' || rf.type === 'json_object') return null;
  if (rf.type !== 'json_schema') {
    throw invalid(`Invalid value: '${String(rf.type)}'. Supported values are: 'json_object', 'json_schema', and 'text'.`, 'response_format.type', 'invalid_value');
  }
  const js = rf.json_schema;
  if (js === undefined) throw invalid("Missing required parameter: 'response_format.json_schema'.", 'response_format.json_schema', 'missing_required_parameter');
  if (!isObject(js)) throw invalid(`Invalid type for 'response_format.json_schema': expected an object, but got ${openAITypeName(js)} instead.`, 'response_format.json_schema', 'invalid_type');
  if (js.name === undefined) throw invalid("Missing required parameter: 'response_format.json_schema.name'.", 'response_format.json_schema.name', 'missing_required_parameter');
  if (typeof js.name !== 'string' || !/^[a-zA-Z0-9_-]{1,64}$/.test(js.name)) {
    throw invalid("Invalid 'response_format.json_schema.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.", 'response_format.json_schema.name', 'invalid_value');
  }
  if (js.schema !== undefined && !isObject(js.schema)) {
    throw invalid(`Invalid type for 'response_format.json_schema.schema': expected an object, but got ${openAITypeName(js.schema)} instead.`, 'response_format.json_schema.schema', 'invalid_type');
  }
  if (js.strict !== undefined && js.strict !== null && typeof js.strict !== 'boolean') {
    throw invalid(`Invalid type for 'response_format.json_schema.strict': expected a boolean, but got ${openAITypeName(js.strict)} instead.`, 'response_format.json_schema.strict', 'invalid_type');
  }
  const schema = isObject(js.schema) ? js.schema : {};
  if (js.strict === true) {
    const problem = strictSchemaProblem(schema);
    if (problem) throw invalid(`Invalid schema for response_format '${js.name}': ${problem}`, 'response_format');
  }
  return schema;
}

function checkBody(rawBody: string): MockCall {
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    throw invalid(
      "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)",
    );
  }
  if (!isObject(body)) throw invalid(`Invalid type for body: expected an object, but got ${openAITypeName(body)} instead.`);
  const unknown = Object.keys(body).find((k) => !KNOWN_FIELDS.has(k));
  if (unknown) throw invalid(`Unrecognized request argument supplied: ${unknown}`);
  if (body.model === undefined || body.model === '') throw invalid('you must provide a model parameter');
  if (typeof body.model !== 'string') throw invalid(`Invalid type for 'model': expected a string, but got ${openAITypeName(body.model)} instead.`, 'model', 'invalid_type');
  const checked = checkMessages(body.messages);
  checkInteger(body, 'max_tokens', 1);
  checkInteger(body, 'max_completion_tokens', 1);
  checkInteger(body, 'n', 1);
  if (typeof body.n === 'number' && body.n > 128) throw invalid(`Invalid 'n': integer above maximum value. Expected a value <= 128, but got ${body.n} instead.`, 'n', 'integer_above_max_value');
  checkNumber(body, 'temperature', 0, 2);
  checkNumber(body, 'top_p', 0, 1);
  if (body.stream !== undefined && body.stream !== null && typeof body.stream !== 'boolean') {
    throw invalid(`Invalid type for 'stream': expected a boolean, but got ${openAITypeName(body.stream)} instead.`, 'stream', 'invalid_type');
  }
  const stream = body.stream === true;
  let includeUsage = false;
  if (body.stream_options !== undefined && body.stream_options !== null) {
    if (!stream) throw invalid("The 'stream_options' parameter is only allowed when 'stream' is enabled.", 'stream_options');
    if (!isObject(body.stream_options)) throw invalid(`Invalid type for 'stream_options': expected an object, but got ${openAITypeName(body.stream_options)} instead.`, 'stream_options', 'invalid_type');
    const iu = body.stream_options.include_usage;
    if (iu !== undefined && typeof iu !== 'boolean') throw invalid(`Invalid type for 'stream_options.include_usage': expected a boolean, but got ${openAITypeName(iu)} instead.`, 'stream_options.include_usage', 'invalid_type');
    includeUsage = iu === true;
  }
  const schema = checkResponseFormat(body.response_format);
  const tools = checkTools(body.tools);
  const toolChoice = checkToolChoice(body.tool_choice, tools);
  checkToolOrder(checked.map((m) => m.turn));
  const messages = checked.map(({ role, content }) => ({ role, content }));
  // max_completion_tokens replaced max_tokens; when both are sent the newer one is the cap.
  const cap = body.max_completion_tokens ?? body.max_tokens;
  return {
    protocol: 'openai', model: body.model, messages, schema, stream, includeUsage, tools, toolChoice,
    maxTokens: typeof cap === 'number' ? cap : null,
    choices: typeof body.n === 'number' ? body.n : 1,
    apiVersion: null,
    body,
  };
}

function requestId(): string {
  return randomId('req_', 32).toLowerCase();
}

export const openAIModule: ProtocolModule = {
  protocol: 'openai',
  streamTerminator: '[DONE]',

  check(headers, rawBody, apiKey): CheckResult {
    try {
      checkAuth(headers, apiKey);
      return { ok: true, call: checkBody(rawBody) };
    } catch (err) {
      if (err instanceof Invalid) return { ok: false, status: err.status, body: err.body };
      throw err;
    }
  },

  errorBody(status) {
    switch (status) {
      case 400:
        // Recorded (corpus openai-recorded/error-unsupported-parameter.json).
        return openAIError("Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", 'max_tokens', 'unsupported_parameter');
      case 401:
        return openAIError('Incorrect API key provided: sk-mo*****key. You can find your API key at https://platform.openai.com/account/api-keys.', null, 'invalid_api_key');
      case 403:
        return openAIError('Project `proj_mock` does not have access to model `gpt-mock`', null, 'model_not_found');
      case 404:
        return openAIError('The model `gpt-mock` does not exist or you do not have access to it.', null, 'model_not_found');
      case 429:
        return openAIError(
          'Rate limit reached for gpt-mock in organization org-mock on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s. Visit https://platform.openai.com/account/rate-limits to learn more.',
          null,
          'rate_limit_exceeded',
          'requests',
        );
      case 500:
        return openAIError('The server had an error while processing your request. Sorry about that!', null, null, 'server_error');
      case 502:
        // OpenAI's edge answers a bad gateway with Cloudflare's HTML page, not JSON.
        return '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>cloudflare</center>\r\n</body>\r\n</html>\r\n';
      case 503:
        return openAIError('The engine is currently overloaded, please try again later', null, null, 'server_error');
      default:
        return openAIError(`Mock error ${status}`, null, null, status >= 500 ? 'server_error' : 'invalid_request_error');
    }
  },

  quotaError() {
    return {
      status: 429,
      body: openAIError(
        'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.',
        null,
        'insufficient_quota',
        'insufficient_quota',
      ),
    };
  },

  statusHeaders() {
    return {};
  },

  responseHeaders() {
    return { 'x-request-id': requestId(), 'openai-version': '2020-10-01' };
  },

  completion: completionBody,
  streamEvents: completionEvents,

  streamErrorEvent() {
    return { data: JSON.stringify(openAIError('The server had an error while processing your request. Sorry about that!', null, null, 'server_error')) };
  },

  invalidJsonEvent() {
    return { data: '{"choices":[{"delta":{"content":"not json {' };
  },

  toolCallId,

  invalidJsonBody(call) {
    return `{"id":"${randomId('chatcmpl-', 29)}","object":"chat.completion","model":"${call.model}","choices":[{"index":0,"message":{"role":"assistant","content":"not json {`;
  },
};
