import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { protocolValidators, readCorpus } from '../testing/corpus.ts';
import { createFixtureServer, type FixtureServer } from '../testing/fixture-server.ts';
import { ProviderError } from './errors.ts';
import { buildOpenAIBody, createOpenAIProvider } from './openai.ts';
import type { ModelRequest } from './types.ts';

const SSE = { 'content-type': 'text/event-stream' };
const request: ModelRequest = {
  model: 'gpt-4.1-nano',
  maxTokens: 500,
  messages: [
    { role: 'system', content: 'You are terse.' },
    { role: 'user', content: 'Invent a holiday.' },
  ],
};
const contract = {
  name: 'holiday',
  strict: true,
  schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'], additionalProperties: false },
};

let server: FixtureServer;
beforeAll(async () => {
  server = await createFixtureServer();
});
afterAll(() => server.close());

function provider(extra: Partial<Parameters<typeof createOpenAIProvider>[0]> = {}) {
  return createOpenAIProvider({ baseUrl: `${server.url}/v1/`, apiKey: 'sk-test-secret', ...extra });
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

const recordedStream = readCorpus('openai-recorded/openai-text.stream.sse');
const recordedPayloads = recordedStream
  .split('\n')
  .filter((l) => l.startsWith('data: {'))
  .map((l) => JSON.parse(l.slice(6)) as { choices: { delta: { content?: string } }[] });
const recordedText = recordedPayloads.map((p) => p.choices[0]?.delta.content ?? '').join('');

describe('OpenAI provider on recorded traffic', () => {
  it('parses the real recorded stream: text, deltas, finish_reason and the final usage chunk', async () => {
    server.reply({ body: recordedStream, headers: SSE });
    const deltas: string[] = [];
    const res = await provider().call({ ...request, stream: true }, { fetch, onDelta: (d) => deltas.push(d) });
    expect(res.text).toBe(recordedText);
    expect(res.text.startsWith('**Holiday Name:**')).toBe(true);
    expect(deltas.join('')).toBe(res.text);
    expect(res.finishReason).toBe('stop');
    expect(res.rawFinishReason).toBe('stop');
    expect(res.usage).toEqual({ inputTokens: 16, outputTokens: 300, cachedInputTokens: 0, reasoningTokens: 0 });
    expect(res.model).toBe('gpt-4.1-nano-2025-04-14');
    expect(res.rawResponse).toHaveLength(recordedPayloads.length);
  });

  it('accepts an OpenAI-compatible stream whose [DONE] lacks the closing blank line', async () => {
    const compat = readCorpus('openai-recorded/compat-tool-call-stream.sse');
    expect(compat.endsWith('data: [DONE]\n')).toBe(true);
    server.reply({ body: compat, headers: SSE });
    const res = await provider().call({ ...request, stream: true }, { fetch });
    expect(res.finishReason).toBe('tool_calls');
    expect(res.model).toBe('claude-haiku-4-5-20251001');
  });

  it('parses the real recorded completion', async () => {
    const body = readCorpus('openai-recorded/openai-text.response.json');
    server.reply({ body });
    const res = await provider().call(request, { fetch });
    expect(res.text).toBe((JSON.parse(body) as { choices: { message: { content: string } }[] }).choices[0]?.message.content);
    expect(res.finishReason).toBe('stop');
    expect(res.usage).toEqual({ inputTokens: 16, outputTokens: 363, cachedInputTokens: 0, reasoningTokens: 0 });
    expect(res.status).toBe(200);
    expect(res.rawResponse).toEqual(JSON.parse(body));
  });

  it('reports the real error body with its status and message', async () => {
    server.reply({ status: 400, body: readCorpus('openai-recorded/error-unsupported-parameter.json') });
    const err = await failure(provider().call(request, { fetch }));
    expect(err.code).toBe('bad_request');
    expect(err.status).toBe(400);
    expect(err.retryable).toBe(false);
    expect(err.message).toContain('400');
    expect(err.message).toContain("Use 'max_completion_tokens' instead");
  });
});

describe('OpenAI provider: cut streams are never a success', () => {
  const lines = recordedStream.split('\n\n').filter(Boolean);

  it('stream without data: [DONE] → stream_cut', async () => {
    server.reply({ body: `${lines.slice(0, -1).join('\n\n')}\n\n`, headers: SSE });
    const err = await failure(provider().call({ ...request, stream: true }, { fetch }));
    expect(err.code).toBe('stream_cut');
    expect(err.retryable).toBe(true);
  });

  it('stream without a finish_reason → stream_cut even with [DONE]', async () => {
    const noFinish = lines.filter((l) => !l.includes('"finish_reason":"stop"'));
    server.reply({ body: `${noFinish.join('\n\n')}\n\n`, headers: SSE });
    const err = await failure(provider().call({ ...request, stream: true }, { fetch }));
    expect(err.code).toBe('stream_cut');
    expect(err.message).toContain('finish_reason');
  });

  it('connection dropped mid-chunk → stream_cut', async () => {
    server.reply({ body: recordedStream, headers: SSE, cutAfterBytes: 5000 });
    const err = await failure(provider().call({ ...request, stream: true }, { fetch }));
    expect(err.code).toBe('stream_cut');
  });

  it('body ending inside a JSON chunk → stream_cut, not bad_response', async () => {
    server.reply({ body: recordedStream.slice(0, 3000), headers: SSE });
    const err = await failure(provider().call({ ...request, stream: true }, { fetch }));
    expect(err.code).toBe('stream_cut');
  });

  it("steady-style ending (event: done, no [DONE]) → stream_cut", async () => {
    const chunk = JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: 'hi' }, finish_reason: 'stop' }] });
    server.reply({ body: `event: message\ndata: ${chunk}\n\nevent: done\ndata: {}\n\n`, headers: SSE });
    const err = await failure(provider().call({ ...request, stream: true }, { fetch }));
    expect(err.code).toBe('stream_cut');
  });

  it('an error chunk mid-stream is raised, not ignored', async () => {
    const body = `${lines.slice(0, 3).join('\n\n')}\n\ndata: {"error":{"message":"The server had an error while processing your request.","type":"server_error","param":null,"code":null}}\n\n`;
    server.reply({ body, headers: SSE });
    const err = await failure(provider().call({ ...request, stream: true }, { fetch }));
    expect(err.code).toBe('server_error');
    expect(err.message).toContain('The server had an error');
  });
});

describe('OpenAI provider: request shape', () => {
  it('sends the documented body; the key only in the Authorization header', async () => {
    server.reply({ body: readCorpus('openai-recorded/openai-text.response.json') });
    const res = await provider({ extraHeaders: { 'x-extra': 'yes' } }).call({ ...request, temperature: 0.2, contract }, { fetch });
    const seen = server.requests.at(-1)!;
    expect(seen.path).toBe('/v1/chat/completions');
    expect(seen.headers.authorization).toBe('Bearer sk-test-secret');
    expect(seen.headers['x-extra']).toBe('yes');
    expect(seen.body).not.toContain('sk-test-secret');
    expect(seen.path).not.toContain('sk-test-secret');
    const sent = JSON.parse(seen.body) as Record<string, unknown>;
    expect(sent).toEqual(res.requestBody);
    expect(sent).toEqual({
      model: 'gpt-4.1-nano',
      messages: request.messages,
      temperature: 0.2,
      max_tokens: 500,
      response_format: { type: 'json_schema', json_schema: { name: 'holiday', schema: contract.schema, strict: true } },
    });
  });

  it('streaming adds stream_options.include_usage; max_completion_tokens when configured', () => {
    const body = buildOpenAIBody({ ...request, stream: true }, { maxTokensParam: 'max_completion_tokens' });
    expect(body.stream).toBe(true);
    expect(body.stream_options).toEqual({ include_usage: true });
    expect(body.max_completion_tokens).toBe(500);
    expect(body).not.toHaveProperty('max_tokens');
  });

  it('leaves response_format out when structured output is off', () => {
    expect(buildOpenAIBody({ ...request, contract }, { structuredOutput: false })).not.toHaveProperty('response_format');
  });

  it('every body it builds validates against the corpus request schema', () => {
    const validate = protocolValidators().openai.request;
    for (const body of [
      buildOpenAIBody(request, {}),
      buildOpenAIBody({ ...request, contract, temperature: 1, stream: true }, {}),
      buildOpenAIBody({ ...request, contract: { ...contract, strict: false } }, { maxTokensParam: 'max_completion_tokens' }),
    ]) {
      expect(validate(body), validate.errors()).toBe(true);
    }
  });
});

describe('OpenAI provider: responses and transport failures', () => {
  it('message.refusal → finishReason refusal with the refusal as text', async () => {
    const body = { id: 'c', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: null, refusal: "I can't help with that." }, finish_reason: 'stop', logprobs: null }] };
    server.reply({ body: JSON.stringify(body) });
    const res = await provider().call(request, { fetch });
    expect(res.finishReason).toBe('refusal');
    expect(res.text).toBe("I can't help with that.");
  });

  it('an unparseable 200 body → bad_response', async () => {
    server.reply({ body: '{"id":"chatcmpl-1","choices":[' });
    const err = await failure(provider().call(request, { fetch }));
    expect(err.code).toBe('bad_response');
    expect(err.retryable).toBe(false);
  });

  it('a non-JSON error page keeps its status and text', async () => {
    server.reply({ status: 502, body: '<html><head><title>502 Bad Gateway</title></head></html>', headers: { 'content-type': 'text/html' } });
    const err = await failure(provider().call(request, { fetch }));
    expect(err.code).toBe('server_error');
    expect(err.message).toContain('502');
    expect(err.message).toContain('Bad Gateway');
  });

  it('retry-after-ms wins over retry-after', async () => {
    server.reply({ status: 429, body: '{"error":{"message":"slow down","type":"requests","param":null,"code":"rate_limit_exceeded"}}', headers: { 'retry-after': '20', 'retry-after-ms': '1500' } });
    const err = await failure(provider().call(request, { fetch }));
    expect(err.code).toBe('rate_limited');
    expect(err.retryAfterMs).toBe(1500);
  });

  it('a rejected fetch → network; an aborted one → aborted', async () => {
    const refused: typeof fetch = () => Promise.reject(new TypeError('fetch failed'));
    expect((await failure(provider().call(request, { fetch: refused }))).code).toBe('network');
    const controller = new AbortController();
    controller.abort();
    expect((await failure(provider().call(request, { fetch, signal: controller.signal }))).code).toBe('aborted');
  });

  it('calls ctx.fetch without a receiver (window.fetch throws "Illegal invocation" otherwise)', async () => {
    server.reply({ body: readCorpus('openai-recorded/openai-text.response.json') });
    const receivers: unknown[] = [];
    const spy = function (this: unknown, input: RequestInfo | URL, init?: RequestInit) {
      receivers.push(this);
      return fetch(input, init);
    } as typeof fetch;
    await provider().call(request, { fetch: spy });
    expect(receivers).toEqual([undefined]);
  });
});
