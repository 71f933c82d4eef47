import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { protocolValidators, readCorpus, type Validator } from './corpus.ts';
import { anthropicModule } from './mock-anthropic.ts';
import { openAIModule } from './mock-openai.ts';
import { CONTROL_TOKEN_HEADER, createMockModelServer, type MockModelServer } from './mock-server.ts';
import type { MockReply } from './mock-types.ts';

let server: MockModelServer;
beforeAll(async () => {
  server = await createMockModelServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const v = protocolValidators();

function expectValid(validate: Validator, value: unknown) {
  expect(validate(value), `${JSON.stringify(value).slice(0, 400)}\n${validate.errors()}`).toBe(true);
}

const schema = {
  type: 'object',
  properties: { answer: { type: 'string' }, days: { type: 'integer' } },
  required: ['answer', 'days'],
  additionalProperties: false,
};

const openAIBody = (extra: Record<string, unknown> = {}) => ({
  model: 'gpt-mock',
  messages: [
    { role: 'system', content: 'Answer from the text.' },
    { role: 'user', content: 'A request must be filed within 120 days. How many days?' },
  ],
  max_tokens: 200,
  ...extra,
});

const anthropicBody = (extra: Record<string, unknown> = {}) => ({
  model: 'claude-mock',
  max_tokens: 200,
  system: 'Answer from the text.',
  messages: [{ role: 'user', content: 'A request must be filed within 120 days. How many days?' }],
  ...extra,
});

const anthropicHeaders = { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'x-api-key': 'k' };

function postOpenAI(body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${server.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
}

function postAnthropic(body: unknown, headers: Record<string, string> = anthropicHeaders) {
  return fetch(`${server.url}/v1/messages`, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
}

/** Splits an SSE body into its events (exact framing check included). */
function sseEvents(text: string): { event?: string; data: string }[] {
  expect(text.endsWith('\n\n')).toBe(true);
  return text
    .split('\n\n')
    .filter(Boolean)
    .map((block) => {
      const out: { event?: string; data: string } = { data: '' };
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) out.event = line.slice(7);
        else if (line.startsWith('data: ')) out.data = line.slice(6);
        else throw new Error(`unexpected SSE line ${line}`);
      }
      return out;
    });
}

describe('the corpus validators are real', () => {
  it('accept recorded traffic and reject broken shapes', () => {
    const recorded = JSON.parse(readCorpus('openai-recorded/openai-text.response.json')) as Record<string, unknown>;
    expectValid(v.openai.response, recorded);
    expect(v.openai.response({ ...recorded, choices: 'none' })).toBe(false);
    expect(v.openai.chunk({ id: 'x', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: {}, finish_reason: 'done' }] })).toBe(false);
    for (const line of readCorpus('anthropic-recorded/anthropic-text.chunks.jsonl').split('\n').filter(Boolean)) expectValid(v.anthropic.event, JSON.parse(line));
    expect(v.anthropic.event({ type: 'message_delta' })).toBe(false);
    expect(v.anthropic.message({ ...(JSON.parse(readCorpus('anthropic-recorded/anthropic-text.response.json')) as object), stop_reason: 'done' })).toBe(false);
    expect(v.openai.error({ error: { message: 'x' } })).toBe(false);
  });
});

describe('mock OpenAI responses match the corpus schema', () => {
  const replies: [string, MockReply | null][] = [
    ['demo model', null],
    ['scripted object', { content: { answer: '120 days', days: 120 } }],
    ['length', { content: '{"answer": "120', finishReason: 'length' }],
    ['content_filter', { content: '', finishReason: 'content_filter' }],
    ['refusal fault', { fault: 'refusal' }],
    ['refusal reply', { content: 'No.', finishReason: 'refusal' }],
  ];

  it.each(replies)('completion: %s', async (_name, reply) => {
    if (reply) server.enqueue(reply);
    const res = await postOpenAI(openAIBody({ response_format: { type: 'json_schema', json_schema: { name: 'answer', schema, strict: true } } }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    const body = (await res.json()) as { object: string; choices: { message: { content: string | null; refusal: string | null }; finish_reason: string }[]; usage: { total_tokens: number } };
    expectValid(v.openai.response, body);
    expect(body.object).toBe('chat.completion');
    expect(body.usage.total_tokens).toBeGreaterThan(0);
    if (!reply) {
      // The default responder is the demo model: its JSON satisfies the requested schema.
      const validate = new Ajv2020().compile(schema);
      expect(validate(JSON.parse(body.choices[0]!.message.content!))).toBe(true);
    }
    if (reply && 'fault' in reply) expect(body.choices[0]!.message).toMatchObject({ content: null, refusal: expect.any(String) });
  });

  it('stream: every chunk validates; role first, ~4-char deltas, finish chunk, usage chunk, [DONE]', async () => {
    server.enqueue({ content: 'The deadline is one hundred and twenty days.' });
    const res = await postOpenAI(openAIBody({ stream: true, stream_options: { include_usage: true } }));
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const events = sseEvents(await res.text());
    expect(events.at(-1)).toEqual({ data: '[DONE]' });
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.data) as { choices: { delta: { role?: string; content?: string }; finish_reason: string | null }[]; usage: unknown });
    for (const chunk of chunks) expectValid(v.openai.chunk, chunk);
    expect(chunks[0]!.choices[0]!.delta.role).toBe('assistant');
    const usageChunk = chunks.at(-1)!;
    expect(usageChunk.choices).toEqual([]);
    expect(usageChunk.usage).toMatchObject({ prompt_tokens: expect.any(Number), completion_tokens: 11, total_tokens: expect.any(Number) });
    const finishChunk = chunks.at(-2)!;
    expect(finishChunk.choices[0]!.finish_reason).toBe('stop');
    const deltas = chunks.slice(1, -2).map((c) => c.choices[0]!.delta.content!);
    expect(deltas.join('')).toBe('The deadline is one hundred and twenty days.');
    expect(Math.max(...deltas.map((d) => d.length))).toBeLessThanOrEqual(4);
    for (const c of chunks.slice(0, -1)) expect(c.usage).toBeNull();
  });

  it('stream without include_usage has no usage chunk and no usage fields', async () => {
    const res = await postOpenAI(openAIBody({ stream: true }));
    const events = sseEvents(await res.text());
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.data) as Record<string, unknown>);
    for (const chunk of chunks) {
      expectValid(v.openai.chunk, chunk);
      expect(chunk).not.toHaveProperty('usage');
    }
    expect((chunks.at(-1)!.choices as { finish_reason: string }[])[0]!.finish_reason).toBe('stop');
  });

  it('streamed refusal uses delta.refusal', async () => {
    server.enqueue({ fault: 'refusal', message: 'I cannot help with that.' });
    const events = sseEvents(await (await postOpenAI(openAIBody({ stream: true }))).text());
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.data) as { choices: { delta: { refusal?: string } }[] });
    for (const chunk of chunks) expectValid(v.openai.chunk, chunk);
    expect(chunks.map((c) => c.choices[0]?.delta.refusal ?? '').join('')).toBe('I cannot help with that.');
  });

  it('default error bodies validate (except the 502, which is a real HTML page)', () => {
    for (const status of [400, 401, 403, 404, 429, 500, 503, 529]) expectValid(v.openai.error, openAIModule.errorBody(status));
    expectValid(v.openai.error, openAIModule.quotaError().body);
    expect(openAIModule.errorBody(502)).toContain('502 Bad Gateway');
  });
});

describe('mock Anthropic responses match the corpus schema', () => {
  const replies: [string, MockReply | null][] = [
    ['demo model', null],
    ['scripted', { content: { answer: '120 days', days: 120 } }],
    ['max_tokens', { content: '{"answer": "1', finishReason: 'length' }],
    ['refusal fault', { fault: 'refusal' }],
  ];

  it.each(replies)('message: %s', async (_name, reply) => {
    if (reply) server.enqueue(reply);
    const res = await postAnthropic(anthropicBody({ output_config: { format: { type: 'json_schema', schema } } }));
    expect(res.status).toBe(200);
    expect(res.headers.get('request-id')).toMatch(/^req_/);
    const body = (await res.json()) as { id: string; content: { text: string }[]; stop_reason: string };
    expectValid(v.anthropic.message, body);
    expect(body.id).toMatch(/^msg_/);
    if (!reply) expect(new Ajv2020().compile(schema)(JSON.parse(body.content[0]!.text))).toBe(true);
    if (reply && 'fault' in reply) expect(body).toMatchObject({ content: [], stop_reason: 'refusal', stop_details: { type: 'refusal' } });
  });

  it.each(replies)('stream: %s — every event validates, event names match, order is right', async (_name, reply) => {
    if (reply) server.enqueue(reply);
    const res = await postAnthropic(anthropicBody({ stream: true }));
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const events = sseEvents(await res.text());
    const payloads = events.map((e) => JSON.parse(e.data) as { type: string; delta?: { text?: string } });
    for (const [i, p] of payloads.entries()) {
      expectValid(v.anthropic.event, p);
      expect(events[i]!.event).toBe(p.type);
    }
    const types = payloads.map((p) => p.type);
    expect(types[0]).toBe('message_start');
    expect(types.slice(-2)).toEqual(['message_delta', 'message_stop']);
    expect(types).toContain('ping');
    if (types.includes('content_block_start')) {
      expect(types.indexOf('content_block_start')).toBeLessThan(types.indexOf('content_block_delta'));
      expect(types.lastIndexOf('content_block_delta')).toBeLessThan(types.indexOf('content_block_stop'));
      for (const p of payloads.filter((x) => x.type === 'content_block_delta')) expect(Array.from(p.delta!.text!).length).toBeLessThanOrEqual(4);
    }
  });

  it('default error bodies validate against the corpus ErrorResponse', () => {
    for (const status of [400, 401, 403, 404, 429, 500, 502, 503, 529]) expectValid(v.anthropic.error, anthropicModule.errorBody(status));
    expectValid(v.anthropic.error, anthropicModule.quotaError().body);
    expectValid(v.anthropic.event, JSON.parse(anthropicModule.streamErrorEvent().data));
  });
});

describe('mock request validation answers like the real endpoints', () => {
  const openAICases: [string, unknown, string | null, string | null][] = [
    ['not JSON', '{"model":', null, null],
    ['no model', { messages: [{ role: 'user', content: 'hi' }] }, null, null],
    ['no messages', { model: 'm' }, 'messages', 'missing_required_parameter'],
    ['messages not an array', { model: 'm', messages: 'hi' }, 'messages', 'invalid_type'],
    ['empty messages', { model: 'm', messages: [] }, 'messages', 'empty_array'],
    ['bad role', { model: 'm', messages: [{ role: 'wizard', content: 'hi' }] }, 'messages[0].role', 'invalid_value'],
    ['no content', { model: 'm', messages: [{ role: 'user' }] }, 'messages[0].content', 'missing_required_parameter'],
    ['decimal max_tokens', openAIBody({ max_tokens: 1.5 }), 'max_tokens', 'invalid_type'],
    ['string max_completion_tokens', openAIBody({ max_tokens: undefined, max_completion_tokens: '10' }), 'max_completion_tokens', 'invalid_type'],
    ['zero max_tokens', openAIBody({ max_tokens: 0 }), 'max_tokens', 'integer_below_min_value'],
    ['temperature 3', openAIBody({ temperature: 3 }), 'temperature', 'decimal_above_max_value'],
    ['unknown field', openAIBody({ max_output_tokens: 5 }), null, null],
    ['response_format without json_schema', openAIBody({ response_format: { type: 'json_schema' } }), 'response_format.json_schema', 'missing_required_parameter'],
    ['response_format bad type', openAIBody({ response_format: { type: 'yaml' } }), 'response_format.type', 'invalid_value'],
    ['json_schema bad name', openAIBody({ response_format: { type: 'json_schema', json_schema: { name: 'has space', schema } } }), 'response_format.json_schema.name', 'invalid_value'],
    ['strict schema missing additionalProperties', openAIBody({ response_format: { type: 'json_schema', json_schema: { name: 'x', strict: true, schema: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] } } } }), 'response_format', null],
    ['stream_options without stream', openAIBody({ stream_options: { include_usage: true } }), 'stream_options', null],
  ];

  it.each(openAICases)('OpenAI: %s → 400 with the real error shape', async (_name, body, param, code) => {
    const res = await postOpenAI(body);
    expect(res.status).toBe(400);
    const json = (await res.json()) as { error: { type: string; param: string | null; code: string | null; message: string } };
    expectValid(v.openai.error, json);
    expect(json.error.type).toBe('invalid_request_error');
    expect(json.error.param).toBe(param);
    expect(json.error.code).toBe(code);
    expect(json.error.message.length).toBeGreaterThan(10);
  });

  it('OpenAI strict-mode errors name the context like the real API', async () => {
    const nested = { type: 'object', properties: { a: { type: 'object', properties: { b: { type: 'string' } }, additionalProperties: false } }, required: ['a'], additionalProperties: false };
    const res = await postOpenAI(openAIBody({ response_format: { type: 'json_schema', json_schema: { name: 'x', strict: true, schema: nested } } }));
    const json = (await res.json()) as { error: { message: string } };
    expect(json.error.message).toBe(
      "Invalid schema for response_format 'x': In context=('properties', 'a'), 'required' is required to be supplied and to be an array including every key in properties. Missing 'b'.",
    );
  });

  const anthropicCases: [string, unknown, Record<string, string> | undefined, string][] = [
    ['no anthropic-version', anthropicBody(), { 'content-type': 'application/json' }, 'anthropic-version: header is required'],
    ['not JSON', '{"model":', undefined, 'not valid JSON'],
    ['no model', { max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }, undefined, 'model: Field required'],
    ['no max_tokens', { model: 'm', messages: [{ role: 'user', content: 'hi' }] }, undefined, 'max_tokens: Field required'],
    ['decimal max_tokens', anthropicBody({ max_tokens: 2.5 }), undefined, 'max_tokens: Input should be a valid integer'],
    ['system role in messages', anthropicBody({ messages: [{ role: 'system', content: 'x' }] }), undefined, "messages.0.role: Input should be 'user' or 'assistant'"],
    ['assistant first', anthropicBody({ messages: [{ role: 'assistant', content: 'x' }, { role: 'user', content: 'y' }] }), undefined, 'first message must use the "user" role'],
    ['a tool_result with no tool_use before it', anthropicBody({ messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_x', content: 'r' }] }] }), undefined, 'unexpected `tool_use_id`'],
    ['empty content', anthropicBody({ messages: [{ role: 'user', content: '' }] }), undefined, 'must have non-empty content'],
    ['temperature 1.5', anthropicBody({ temperature: 1.5 }), undefined, 'temperature: Input should be less than or equal to 1'],
    ['unknown field', anthropicBody({ response_format: {} }), undefined, 'response_format: Extra inputs are not permitted'],
    ['bad output_config', anthropicBody({ output_config: { format: { type: 'json_object' } } }), undefined, "output_config.format.type: Input should be 'json_schema'"],
  ];

  it.each(anthropicCases)('Anthropic: %s → 400 with the real error shape', async (_name, body, headers, message) => {
    const res = await postAnthropic(body, headers ?? anthropicHeaders);
    expect(res.status).toBe(400);
    expect(res.headers.get('request-id')).toMatch(/^req_/);
    const json = (await res.json()) as { type: string; error: { type: string; message: string } };
    expectValid(v.anthropic.error, json);
    expect(json.error.type).toBe('invalid_request_error');
    expect(json.error.message).toContain(message);
  });

  it('records malformed requests too, with keys redacted', async () => {
    await postOpenAI({ model: 'm' }, { authorization: 'Bearer sk-live-123' });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({ protocol: 'openai', path: '/v1/chat/completions', body: { model: 'm' } });
    expect(server.requests[0]!.headers.authorization).toBe('[redacted]');
    expect(JSON.stringify(server.requests)).not.toContain('sk-live-123');
  });

  it('records each body exactly as sent beside the parsed one (escapes and spacing kept)', async () => {
    const text = '{"model":"m", "messages":[{"role":"user","content":"\\u00e9 é \\ud800"}]}';
    await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });
    expect(server.requests[0]!.rawBody).toBe(text);
    expect(server.requests[0]!.body).toMatchObject({ messages: [{ content: 'é é \ud800' }] });
  });

  it('unknown routes get a 404 and are recorded as unknown (catches a wrong base URL)', async () => {
    const res = await fetch(`${server.url}/v1/v1/messages`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(404);
    expectValid(v.openai.error, await res.json());
    expect(server.requests[0]).toMatchObject({ protocol: 'unknown', path: '/v1/v1/messages' });
  });
});

describe('mock auth, CORS, control API and lifetime', () => {
  it('with apiKey set, a missing or wrong key gets the real 401 on both protocols', async () => {
    const keyed = await createMockModelServer({ apiKey: 'sk-right' });
    try {
      const post = (path: string, headers: Record<string, string>, body: unknown) =>
        fetch(`${keyed.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
      for (const headers of [{}, { authorization: 'Bearer sk-wrong-key-0000' }] as Record<string, string>[]) {
        const res = await post('/v1/chat/completions', headers, openAIBody());
        expect(res.status).toBe(401);
        expect(((await res.json()) as { error: { code: string } }).error.code).toBe('invalid_api_key');
      }
      expect((await post('/v1/chat/completions', { authorization: 'Bearer sk-right' }, openAIBody())).status).toBe(200);
      for (const key of [undefined, 'sk-wrong']) {
        const res = await post('/v1/messages', { 'anthropic-version': '2023-06-01', ...(key ? { 'x-api-key': key } : {}) }, anthropicBody());
        expect(res.status).toBe(401);
        expect(((await res.json()) as { error: { type: string } }).error.type).toBe('authentication_error');
      }
      expect((await post('/v1/messages', { 'anthropic-version': '2023-06-01', 'x-api-key': 'sk-right' }, anthropicBody())).status).toBe(200);
      expect(keyed.requests.map((r) => r.headers['x-api-key'] ?? r.headers.authorization)).toEqual([undefined, '[redacted]', '[redacted]', undefined, '[redacted]', '[redacted]']);
    } finally {
      await keyed.close();
    }
  });

  it('a browser call to Anthropic without the opt-in header is refused, as by the real API', async () => {
    const res = await postAnthropic(anthropicBody(), { ...anthropicHeaders, origin: 'http://127.0.0.1:5173' });
    expect(res.status).toBe(401);
    const ok = await postAnthropic(anthropicBody(), { ...anthropicHeaders, origin: 'http://127.0.0.1:5173', 'anthropic-dangerous-direct-browser-access': 'true' });
    expect(ok.status).toBe(200);
  });

  it('answers CORS preflights and exposes Retry-After to pages', async () => {
    const pre = await fetch(`${server.url}/v1/messages`, {
      method: 'OPTIONS',
      headers: { origin: 'http://127.0.0.1:5173', 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-api-key,anthropic-version,content-type' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    const allowed = pre.headers.get('access-control-allow-headers') ?? '';
    for (const h of ['authorization', 'content-type', 'x-api-key', 'anthropic-version', 'anthropic-dangerous-direct-browser-access']) expect(allowed).toContain(h);
    server.enqueue({ fault: 'status', status: 429, retryAfter: '1' });
    const res = await postOpenAI(openAIBody());
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-expose-headers')).toContain('retry-after');
    expect(res.headers.get('retry-after')).toBe('1');
  });

  it('control API: enqueue, read requests, reset — from another process, with the control token', async () => {
    const headers = { [CONTROL_TOKEN_HEADER]: server.controlToken };
    const bad = await fetch(`${server.url}/__mock/enqueue`, { method: 'POST', headers, body: JSON.stringify([{ fault: 'explode' }]) });
    expect(bad.status).toBe(400);
    const ok = await fetch(`${server.url}/__mock/enqueue`, { method: 'POST', headers, body: JSON.stringify([{ content: 'first' }, { fault: 'status', status: 503 }]) });
    expect(await ok.json()).toEqual({ queued: 2 });
    const first = (await (await postOpenAI(openAIBody())).json()) as { choices: { message: { content: string } }[] };
    expect(first.choices[0]!.message.content).toBe('first');
    expect((await postAnthropic(anthropicBody())).status).toBe(503);
    const seen = (await (await fetch(`${server.url}/__mock/requests`, { headers })).json()) as { protocol: string }[];
    expect(seen.map((r) => r.protocol)).toEqual(['openai', 'anthropic']);
    await fetch(`${server.url}/__mock/reset`, { method: 'POST', headers });
    expect(server.requests).toHaveLength(0);
    expect(server.queued()).toBe(0);
  });

  it('a reply with `match` answers the request containing it, whatever the order they arrive in', async () => {
    const ask = (text: string) => postOpenAI({ ...openAIBody(), messages: [{ role: 'system', content: 'Summarise.' }, { role: 'user', content: text }] });
    const answer = async (res: Response) => res.status === 200 ? ((await res.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content : res.status;
    server.enqueue(
      { content: 'first unkeyed' },
      { match: '[unit-b]', fault: 'status', status: 429, retryAfter: '0' },
      { match: '[unit-b]', content: 'b, second time' },
      { match: '[unit-a]', content: 'a' },
      { content: 'second unkeyed' },
    );
    // Unit b asks first, then a, then a request no key matches, then b again.
    expect(await answer(await ask('ticket [unit-b]'))).toBe(429);
    expect(await answer(await ask('ticket [unit-a]'))).toBe('a');
    expect(await answer(await ask('no marker here'))).toBe('first unkeyed');
    expect(await answer(await ask('ticket [unit-b] again'))).toBe('b, second time');
    // With its keyed replies spent, a marked request takes the next unkeyed one; then the demo model answers.
    expect(await answer(await ask('ticket [unit-a] again'))).toBe('second unkeyed');
    expect(server.queued()).toBe(0);
    expect(typeof (await answer(await ask('ticket [unit-a] a third time')))).toBe('string');
    // The system prompt counts, and over the control API `match` is checked like the rest of a reply.
    const headers = { [CONTROL_TOKEN_HEADER]: server.controlToken };
    expect((await fetch(`${server.url}/__mock/enqueue`, { method: 'POST', headers, body: JSON.stringify([{ match: 7, content: 'x' }]) })).status).toBe(400);
    expect((await fetch(`${server.url}/__mock/enqueue`, { method: 'POST', headers, body: JSON.stringify([{ match: 'Summarise.', content: 'by system' }]) })).status).toBe(200);
    expect(await answer(await ask('anything'))).toBe('by system');
  });

  it('control routes refuse a missing or wrong token, answer no CORS, and refuse preflights; model routes keep CORS', async () => {
    server.enqueue({ content: 'queued' });
    const page = { origin: 'http://evil.example' };
    for (const [method, path] of [['GET', '/__mock/requests'], ['GET', '/__mock/health'], ['POST', '/__mock/enqueue'], ['POST', '/__mock/reset'], ['GET', '/__mock/other']] as const) {
      for (const token of [undefined, '', 'wrong', `${server.controlToken}x`]) {
        const res = await fetch(`${server.url}${path}`, { method, headers: { ...page, ...(token === undefined ? {} : { [CONTROL_TOKEN_HEADER]: token }) }, body: method === 'POST' ? '[{"content":"x"}]' : undefined });
        expect(res.status, `${method} ${path} token=${token}`).toBe(401);
        expect(res.headers.get('access-control-allow-origin')).toBeNull();
        expect(await res.text()).not.toContain('queued');
      }
      const preflight = await fetch(`${server.url}${path}`, { method: 'OPTIONS', headers: { ...page, 'access-control-request-method': method, 'access-control-request-headers': CONTROL_TOKEN_HEADER } });
      expect(preflight.status).toBe(403);
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
      expect(preflight.headers.get('access-control-allow-headers')).toBeNull();
    }
    // Even with the token, a control answer carries no CORS header.
    const withToken = await fetch(`${server.url}/__mock/health`, { headers: { ...page, [CONTROL_TOKEN_HEADER]: server.controlToken } });
    expect(withToken.status).toBe(200);
    expect(withToken.headers.get('access-control-allow-origin')).toBeNull();
    expect(server.queued()).toBe(1);
    const models = await fetch(`${server.url}/v1/models`, { headers: page });
    expect(models.status).toBe(200);
    expect(models.headers.get('access-control-allow-origin')).toBe('*');
    expect(((await models.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
    expect((await fetch(`${server.url}/v1/chat/completions`, { method: 'OPTIONS', headers: page })).headers.get('access-control-allow-origin')).toBe('*');
    server.reset();
  });

  it('takes a control token from its options, and each start gets its own', async () => {
    const given = await createMockModelServer({ controlToken: 'a-known-token-for-this-test' });
    const other = await createMockModelServer();
    try {
      expect(given.controlToken).toBe('a-known-token-for-this-test');
      expect(other.controlToken).not.toBe(server.controlToken);
      expect(other.controlToken.length).toBeGreaterThanOrEqual(24);
      expect((await fetch(`${given.url}/__mock/health`, { headers: { [CONTROL_TOKEN_HEADER]: 'a-known-token-for-this-test' } })).status).toBe(200);
    } finally {
      await Promise.all([given.close(), other.close()]);
    }
  });

  it('setResponder answers when the queue is empty and sees the parsed call', async () => {
    server.setResponder((call) => ({ content: `${call.protocol}:${call.messages[0]!.role}:${call.schema ? 'schema' : 'free'}` }));
    const o = (await (await postOpenAI(openAIBody())).json()) as { choices: { message: { content: string } }[] };
    expect(o.choices[0]!.message.content).toBe('openai:system:free');
    const a = (await (await postAnthropic(anthropicBody({ output_config: { format: { type: 'json_schema', schema } } }))).json()) as { content: { text: string }[] };
    expect(a.content[0]!.text).toBe('anthropic:system:schema');
  });

  it('listens on 127.0.0.1 only', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('closes itself after idleExitMs without requests', async () => {
    const idle = await createMockModelServer({ idleExitMs: 20 });
    await fetch(`${idle.url}/v1/models`);
    await idle.closed;
    await expect(fetch(`${idle.url}/v1/models`)).rejects.toThrow();
  });
});
