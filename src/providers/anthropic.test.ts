import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonlToAnthropicSse, protocolValidators, readCorpus } from '../testing/corpus.ts';
import { createFixtureServer, type FixtureServer } from '../testing/fixture-server.ts';
import { buildAnthropicBody, createAnthropicProvider } from './anthropic.ts';
import { ProviderError } from './errors.ts';
import type { ModelRequest } from './types.ts';

const SSE = { 'content-type': 'text/event-stream' };
const request: ModelRequest = {
  model: 'claude-sonnet-4-5',
  maxTokens: 1024,
  messages: [
    { role: 'system', content: 'You are terse.' },
    { role: 'user', content: 'Say hello.' },
  ],
};
const contract = {
  name: 'greeting',
  strict: true,
  schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
};

let server: FixtureServer;
beforeAll(async () => {
  server = await createFixtureServer();
});
afterAll(() => server.close());

function provider(extra: Partial<Parameters<typeof createAnthropicProvider>[0]> = {}) {
  return createAnthropicProvider({ baseUrl: server.url, apiKey: 'sk-ant-secret', ...extra });
}

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(ProviderError);
    return err as ProviderError;
  }
  throw new Error('expected the call to fail');
}

async function streamed(body: string, onDelta?: (d: string) => void) {
  server.reply({ body, headers: SSE });
  return provider().call({ ...request, stream: true }, { fetch, onDelta });
}

describe('Anthropic provider on recorded streams', () => {
  it('parses the SDK fixture basic_response.sse (with a ping)', async () => {
    const deltas: string[] = [];
    const res = await streamed(readCorpus('anthropic-sse/basic_response.sse'), (d) => deltas.push(d));
    expect(res.text).toBe('Hello there!');
    expect(deltas).toEqual(['Hello', ' there', '!']);
    expect(res.finishReason).toBe('stop');
    expect(res.rawFinishReason).toBe('end_turn');
    expect(res.usage).toEqual({ inputTokens: 11, outputTokens: 6 });
    expect(res.model).toBe('claude-opus-4-8');
    expect(res.rawResponse).toHaveLength(9);
  });

  it('parses recorded text traffic to the same text as the recorded non-streaming reply would give', async () => {
    const res = await streamed(jsonlToAnthropicSse(readCorpus('anthropic-recorded/anthropic-text.chunks.jsonl')));
    expect(res.text).toBe("Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?");
    expect(res.usage).toEqual({ inputTokens: 12, outputTokens: 30, cachedInputTokens: 0 });
  });

  it('structured output (output_config.format) streams JSON text', async () => {
    const res = await streamed(jsonlToAnthropicSse(readCorpus('anthropic-recorded/anthropic-json-output-format.1.chunks.jsonl')));
    expect(res.finishReason).toBe('stop');
    expect((JSON.parse(res.text) as { characters: unknown[] }).characters.length).toBeGreaterThan(0);
  });

  it('message_delta restating input_tokens wins over message_start', async () => {
    const res = await streamed(jsonlToAnthropicSse(readCorpus('anthropic-recorded/anthropic-message-delta-input-tokens.chunks.jsonl')));
    expect(res.text).toBe('pong');
    expect(res.usage).toEqual({ inputTokens: 61, outputTokens: 2 });
  });

  it('a streamed refusal has no text block: its explanation becomes the text', async () => {
    const res = await streamed(jsonlToAnthropicSse(readCorpus('anthropic-recorded/anthropic-refusal.chunks.jsonl')));
    expect(res.finishReason).toBe('refusal');
    expect(res.text).toContain('violative cyber content');
  });

  it('tool_use streams → tool_calls, text blocks only', async () => {
    const res = await streamed(readCorpus('anthropic-sse/tool_use_response.sse'));
    expect(res.finishReason).toBe('tool_calls');
    expect(res.text).toBe("I'll check the current weather in Paris for you.");
    for (const file of ['anthropic-json-tool.1', 'anthropic-tool-no-args']) {
      const r = await streamed(jsonlToAnthropicSse(readCorpus(`anthropic-recorded/${file}.chunks.jsonl`)));
      expect(r.finishReason).toBe('tool_calls');
    }
  });

  it('max_tokens in the middle of tool JSON → length', async () => {
    const res = await streamed(readCorpus('anthropic-sse/max_tokens_incomplete_tool_json.sse'));
    expect(res.finishReason).toBe('length');
    expect(res.rawFinishReason).toBe('max_tokens');
    expect(res.usage.outputTokens).toBe(124);
  });
});

describe('Anthropic provider: cut and failed streams', () => {
  const basic = readCorpus('anthropic-sse/basic_response.sse');

  it('no message_stop → stream_cut', async () => {
    server.reply({ body: basic.replace(/event: message_stop\ndata: .*\n\n/, ''), headers: SSE });
    const err = await failure(provider().call({ ...request, stream: true }, { fetch }));
    expect(err.code).toBe('stream_cut');
    expect(err.retryable).toBe(true);
  });

  it('connection dropped mid-event → stream_cut', async () => {
    server.reply({ body: basic, headers: SSE, cutAfterBytes: 400 });
    expect((await failure(provider().call({ ...request, stream: true }, { fetch }))).code).toBe('stream_cut');
  });

  it('event: error (overloaded_error) after a 200 → overloaded', async () => {
    const head = basic.split('event: content_block_stop')[0];
    server.reply({ body: `${head}event: error\ndata: {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}\n\n`, headers: SSE });
    const err = await failure(provider().call({ ...request, stream: true }, { fetch }));
    expect(err.code).toBe('overloaded');
    expect(err.message).toContain('Overloaded');
  });
});

describe('Anthropic provider: non-streaming replies and error bodies', () => {
  it('parses the recorded messages', async () => {
    server.reply({ body: readCorpus('anthropic-recorded/anthropic-text.response.json') });
    const res = await provider().call(request, { fetch });
    expect(res.text).toBe("Hello! I'm doing well, thanks for asking. How are you doing today? Is there anything I can help you with?");
    expect(res.usage).toEqual({ inputTokens: 12, outputTokens: 29, cachedInputTokens: 0 });

    server.reply({ body: readCorpus('anthropic-recorded/anthropic-tool-no-args.response.json') });
    const tool = await provider().call(request, { fetch });
    expect(tool.finishReason).toBe('tool_calls');
    expect(tool.text).toContain('Okay, I will update the current issue list:');

    server.reply({ body: readCorpus('anthropic-recorded/anthropic-refusal.response.json') });
    const refusal = await provider().call(request, { fetch });
    expect(refusal.finishReason).toBe('refusal');
    expect(refusal.text).toContain("Anthropic's Usage Policy");
  });

  const cases: [number, unknown, string, Record<string, string>?][] = [
    [401, { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } }, 'auth'],
    [403, { type: 'error', error: { type: 'permission_error', message: 'no permission' } }, 'auth'],
    [429, { type: 'error', error: { type: 'rate_limit_error', message: 'This request would exceed the rate limit' } }, 'rate_limited', { 'retry-after': '7' }],
    [529, { type: 'error', error: { details: null, type: 'overloaded_error', message: 'Overloaded' } }, 'overloaded'],
    [500, { type: 'error', error: { type: 'api_error', message: 'Internal server error' } }, 'server_error'],
    [404, { type: 'error', error: { type: 'not_found_error', message: 'model: claude-nope' } }, 'not_found'],
    [400, { type: 'error', error: { type: 'invalid_request_error', message: 'messages: roles must alternate between "user" and "assistant"' } }, 'bad_request'],
    // Real spend-limit answers (both plain 400 invalid_request_error bodies):
    [400, { type: 'error', error: { type: 'invalid_request_error', message: 'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.' }, request_id: 'req_1' }, 'quota_exceeded'],
    [400, { type: 'error', error: { type: 'invalid_request_error', message: 'You have reached your specified API usage limits. You will regain access on 2026-04-01 at 00:00 UTC.' } }, 'quota_exceeded'],
  ];
  it.each(cases)('status %i → the right code', async (status, body, code, headers) => {
    server.reply({ status, body: JSON.stringify(body), headers });
    const err = await failure(provider().call(request, { fetch }));
    expect(err.code).toBe(code);
    expect(err.status).toBe(status);
    expect(err.message).toContain(String(status));
    expect(err.message).toContain((body as { error: { message: string } }).error.message);
    if (headers?.['retry-after']) expect(err.retryAfterMs).toBe(7000);
    if (code === 'quota_exceeded' || code === 'auth') expect(err.retryable).toBe(false);
  });
});

describe('Anthropic provider: request shape', () => {
  it('sends the current version by default, without the sampling parameters it refuses', async () => {
    server.reply({ body: readCorpus('anthropic-recorded/anthropic-text.response.json') });
    const res = await provider({ baseUrl: server.url }).call({ ...request, temperature: 0.5 }, { fetch });
    expect(server.requests.at(-1)!.headers['anthropic-version']).toBe('2026-10-21');
    expect(res.requestBody).not.toHaveProperty('temperature');
  });

  it('posts to /v1/messages with the version and key headers; system goes top-level', async () => {
    server.reply({ body: readCorpus('anthropic-recorded/anthropic-text.response.json') });
    const res = await provider({ baseUrl: `${server.url}/v1/`, browser: true, apiVersion: '2023-06-01' }).call({ ...request, temperature: 0.5, contract }, { fetch });
    const seen = server.requests.at(-1)!;
    expect(seen.path).toBe('/v1/messages');
    expect(seen.headers['x-api-key']).toBe('sk-ant-secret');
    expect(seen.headers['anthropic-version']).toBe('2023-06-01');
    expect(seen.headers['anthropic-dangerous-direct-browser-access']).toBe('true');
    expect(seen.headers.authorization).toBeUndefined();
    expect(seen.body).not.toContain('sk-ant-secret');
    const sent = JSON.parse(seen.body) as Record<string, unknown>;
    expect(sent).toEqual(res.requestBody);
    expect(sent).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      system: 'You are terse.',
      messages: [{ role: 'user', content: 'Say hello.' }],
      temperature: 0.5,
      output_config: { format: { type: 'json_schema', schema: contract.schema } },
    });
  });

  it('a temperature above 1 is refused before anything is sent, naming the range', async () => {
    const before = server.requests.length;
    const err = await failure(provider({ baseUrl: server.url, apiVersion: '2023-06-01' }).call({ ...request, temperature: 1.5 }, { fetch }));
    expect(err.code).toBe('bad_request');
    expect(err.retryable).toBe(false);
    expect(err.message).toContain("temperature 1.5 is outside Anthropic's range 0–1");
    expect(server.requests.length).toBe(before);
  });

  it('joins adjacent turns of one role so roles alternate', () => {
    const body = buildAnthropicBody(
      {
        ...request,
        messages: [
          { role: 'user', content: 'a' },
          { role: 'user', content: 'b' },
          { role: 'assistant', content: 'c' },
        ],
      },
      {},
    );
    expect(body.messages).toEqual([
      { role: 'user', content: 'a\n\nb' },
      { role: 'assistant', content: 'c' },
    ]);
    expect(body).not.toHaveProperty('system');
  });

  it('every body it builds validates against the corpus request schema', () => {
    const validate = protocolValidators().anthropic.request;
    for (const body of [buildAnthropicBody(request, {}), buildAnthropicBody({ ...request, contract, stream: true, temperature: 1 }, { apiVersion: '2023-06-01' })]) {
      expect(validate(body), validate.errors()).toBe(true);
    }
    expect(buildAnthropicBody({ ...request, contract }, { structuredOutput: false })).not.toHaveProperty('output_config');
  });

  it('an unparseable 200 body → bad_response', async () => {
    server.reply({ body: '{"type":"message","content":[{"type":"text","text":"not json {' });
    expect((await failure(provider().call(request, { fetch }))).code).toBe('bad_response');
  });
});

describe('an endpoint that redirects', () => {
  it('is not followed: the key never reaches the address it points to, and the error says what to set', async () => {
    const elsewhere = await createFixtureServer();
    try {
      elsewhere.reply({ body: '{}' });
      server.reply({ status: 307, headers: { location: `${elsewhere.url}/v1/messages` }, body: '' });
      const err = await failure(provider().call(request, { fetch }));
      expect(err.code).toBe('bad_response');
      expect(err.retryable).toBe(false);
      expect(err.message).toMatch(/redirect.*not followed.*address it redirects to/);
      expect(elsewhere.requests).toHaveLength(0);
    } finally {
      await elsewhere.close();
    }
  });
});
