import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../providers/anthropic.ts';
import { ProviderError, type ProviderErrorCode } from '../providers/errors.ts';
import { createOpenAIProvider } from '../providers/openai.ts';
import type { ModelProvider, ModelRequest } from '../providers/types.ts';
import { createMockModelServer, type MockModelServer } from './mock-server.ts';
import type { MockReply } from './mock-types.ts';

/** Every scripted fault, on both protocols, through the real providers over real HTTP. */

let server: MockModelServer;
let providers: Record<'openai' | 'anthropic', ModelProvider>;
const KEY = 'sk-mock-key';

beforeAll(async () => {
  server = await createMockModelServer({ apiKey: KEY });
  providers = {
    openai: createOpenAIProvider({ baseUrl: `${server.url}/v1`, apiKey: KEY }),
    anthropic: createAnthropicProvider({ baseUrl: server.url, apiKey: KEY }),
  };
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const schema = {
  type: 'object',
  properties: { deadline: { type: 'string' }, days: { type: 'integer' } },
  required: ['deadline', 'days'],
  additionalProperties: false,
};
const request: ModelRequest = {
  model: 'mock-model',
  maxTokens: 300,
  messages: [
    { role: 'system', content: 'Extract the deadline.' },
    { role: 'user', content: 'You must request a redetermination within the 120-day period after the notice.' },
  ],
  contract: { name: 'deadline', schema, strict: true },
};

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(ProviderError);
    return err as ProviderError;
  }
  throw new Error('expected the call to fail');
}

const protocols = ['openai', 'anthropic'] as const;
const modes = [false, true] as const;

describe.each(protocols)('%s provider against the mock', (protocol) => {
  const call = (stream: boolean, ctx: Partial<Parameters<ModelProvider['call']>[1]> = {}) => providers[protocol].call({ ...request, stream }, { fetch, ...ctx });

  it.each(modes)('demo output satisfies the contract (stream %s), deltas add up', async (stream) => {
    const deltas: string[] = [];
    const res = await call(stream, { onDelta: (d) => deltas.push(d) });
    expect(res.finishReason).toBe('stop');
    expect(new Ajv2020().compile(schema)(JSON.parse(res.text))).toBe(true);
    if (stream) expect(deltas.join('')).toBe(res.text);
    expect(res.usage.inputTokens).toBeGreaterThan(0);
    expect(res.usage.outputTokens).toBe(Math.ceil(res.text.length / 4));
    const sent = server.requests[0]!;
    expect(sent.body).toEqual(res.requestBody);
    expect(JSON.stringify(sent.body)).not.toContain(KEY);
  });

  const statuses: [MockReply, ProviderErrorCode, boolean][] = [
    [{ fault: 'status', status: 400 }, 'bad_request', false],
    [{ fault: 'status', status: 401 }, 'auth', false],
    [{ fault: 'status', status: 403 }, 'auth', false],
    [{ fault: 'status', status: 404 }, 'not_found', false],
    [{ fault: 'status', status: 429 }, 'rate_limited', true],
    [{ fault: 'status', status: 500 }, 'server_error', true],
    [{ fault: 'status', status: 502 }, 'server_error', true],
    [{ fault: 'status', status: 503 }, 'server_error', true],
    [{ fault: 'status', status: 529 }, 'overloaded', true],
    [{ fault: 'quota' }, 'quota_exceeded', false],
  ];
  it.each(statuses)('%j → %s (retryable %s)', async (reply, code, retryable) => {
    for (const stream of modes) {
      server.enqueue(reply);
      const err = await failure(call(stream));
      expect(err.code).toBe(code);
      expect(err.retryable).toBe(retryable);
      expect(err.status).toBeGreaterThanOrEqual(400);
      expect(err.message).toContain(String(err.status));
    }
  });

  it('429 with Retry-After → retryAfterMs; the endpoint message is in the error', async () => {
    server.enqueue({ fault: 'status', status: 429, retryAfter: '3' });
    const err = await failure(call(false));
    expect(err.retryAfterMs).toBe(3000);
    expect(err.message).toContain(protocol === 'openai' ? 'Rate limit reached' : 'would exceed the rate limit');
    server.enqueue({ fault: 'status', status: 529, headers: { 'retry-after-ms': '250' } });
    expect((await failure(call(true))).retryAfterMs).toBe(250);
  });

  it('a custom error body is passed through', async () => {
    server.enqueue({ fault: 'status', status: 500, body: { error: { message: 'custom boom', type: 'server_error', param: null, code: null } } });
    const err = await failure(call(false));
    expect(err.body).toEqual({ error: { message: 'custom boom', type: 'server_error', param: null, code: null } });
  });

  it.each(modes)('invalid JSON body (stream %s) → bad_response', async (stream) => {
    server.enqueue({ fault: 'invalid_json' });
    const err = await failure(call(stream));
    expect(err.code).toBe('bad_response');
    expect(err.retryable).toBe(false);
  });

  // Realistic 200s that are not answers: each is refused as a bad response (or the error it
  // carries), in both modes, never read as an empty completion.
  const bad200: [MockReply, ProviderErrorCode][] = [
    [{ fault: 'empty_body' }, 'bad_response'],
    [{ fault: 'html_page' }, 'bad_response'],
    [{ fault: 'truncated_json' }, 'bad_response'],
    [{ fault: 'error_in_200', status: 500 }, 'server_error'],
    [{ fault: 'error_in_200', status: 401 }, 'auth'],
  ];
  it.each(bad200)('%j → %s', async (reply, code) => {
    for (const stream of modes) {
      server.enqueue(reply);
      expect((await failure(call(stream))).code).toBe(code);
    }
  });

  it('a cut stream of given content fails as stream_cut, whatever the text so far', async () => {
    for (const clean of [false, true]) {
      server.enqueue({ fault: 'cut_stream', afterChunks: 4, content: 'a perfectly plausible sentence that stops', clean });
      expect((await failure(call(true))).code).toBe('stream_cut');
    }
  });

  it('content that is not JSON still arrives as text (judging it is the engine’s job)', async () => {
    server.enqueue({ content: 'not json {' }, { content: 'not json {' });
    expect((await call(false)).text).toBe('not json {');
    expect((await call(true)).text).toBe('not json {');
  });

  it.each([0, 1, 3, 1000])('cut stream after %i chunks → stream_cut', async (afterChunks) => {
    server.enqueue({ fault: 'cut_stream', afterChunks });
    const err = await failure(call(true));
    expect(err.code).toBe('stream_cut');
    expect(err.retryable).toBe(true);
  });

  it('cut non-streaming body → stream_cut', async () => {
    server.enqueue({ fault: 'cut_stream', afterChunks: 0 });
    expect((await failure(call(false))).code).toBe('stream_cut');
  });

  it('mid-stream error event → raised with its type', async () => {
    server.enqueue({ fault: 'stream_error', afterChunks: 2 });
    const err = await failure(call(true));
    expect(err.code).toBe(protocol === 'openai' ? 'server_error' : 'overloaded');
    expect(err.status).toBeNull();
  });

  it.each(modes)('finish length → finishReason length (stream %s)', async (stream) => {
    server.enqueue({ content: '{"deadline": "120-day', finishReason: 'length', usage: { inputTokens: 40, outputTokens: 300 } });
    const res = await call(stream);
    expect(res.finishReason).toBe('length');
    expect(res.rawFinishReason).toBe(protocol === 'openai' ? 'length' : 'max_tokens');
    expect(res.text).toBe('{"deadline": "120-day');
    expect(res.usage).toMatchObject({ inputTokens: 40, outputTokens: 300, cachedInputTokens: 0 });
  });

  it.each(modes)('refusal → finishReason refusal with the refusal text (stream %s)', async (stream) => {
    server.enqueue({ fault: 'refusal', message: 'I can’t help with that.' });
    const res = await call(stream);
    expect(res.finishReason).toBe('refusal');
    expect(res.text).toBe('I can’t help with that.');
  });

  it('content_filter maps to content_filter (OpenAI) or refusal (Anthropic has no filter stop)', async () => {
    server.enqueue({ content: '', finishReason: 'content_filter' });
    expect((await call(false)).finishReason).toBe(protocol === 'openai' ? 'content_filter' : 'refusal');
  });

  it('delay then a normal answer', async () => {
    server.enqueue({ fault: 'delay', delayMs: 5 }, { content: { deadline: 'x', days: 1 }, delayMs: 5 });
    expect((await call(true)).finishReason).toBe('stop');
    expect(JSON.parse((await call(false)).text)).toEqual({ deadline: 'x', days: 1 });
  });

  it('hang → the caller’s abort ends it as aborted; a timeout signal as timeout', async () => {
    server.enqueue({ fault: 'hang' });
    const controller = new AbortController();
    const pending = call(false, { signal: controller.signal });
    // Abort once the mock has the request, so the abort hits a real hanging response.
    while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    expect((await failure(pending)).code).toBe('aborted');
    server.enqueue({ fault: 'hang' });
    expect((await failure(call(true, { signal: AbortSignal.timeout(50) }))).code).toBe('timeout');
  });

  it('a wrong key gets the real 401 → auth, not retryable', async () => {
    const wrong = protocol === 'openai' ? createOpenAIProvider({ baseUrl: `${server.url}/v1`, apiKey: 'sk-wrong' }) : createAnthropicProvider({ baseUrl: server.url, apiKey: 'sk-wrong' });
    const err = await failure(wrong.call(request, { fetch }));
    expect(err.code).toBe('auth');
    expect(err.retryable).toBe(false);
    expect(err.message).toContain('401');
  });
});
