import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusPath, jsonlToAnthropicSse, readCorpus } from '../testing/corpus.ts';
import { createFixtureServer, type FixtureServer } from '../testing/fixture-server.ts';
import { createAnthropicProvider } from './anthropic.ts';
import { ProviderError } from './errors.ts';
import { createOpenAIProvider } from './openai.ts';
import type { ModelRequest, ModelResponse } from './types.ts';

/**
 * Every recorded payload of the protocol corpus (src/testing/corpus/{openai-recorded,
 * anthropic-recorded,anthropic-sse}) replayed byte for byte over HTTP through the providers.
 * The list is read from the folders, so a recording added there and not here fails the test.
 * Tool calls, reasoning and cached/reasoning token counts must come through, and a recorded
 * stream must read as the recorded non-streaming reply of the same call.
 */

const SSE = { 'content-type': 'text/event-stream' };
const request: ModelRequest = { model: 'recorded', maxTokens: 1024, messages: [{ role: 'user', content: 'Replay.' }] };

let server: FixtureServer;
beforeAll(async () => {
  server = await createFixtureServer();
});
afterAll(() => server.close());

/** `.chunks.jsonl` recordings kept one payload a line and dropped the framing: put it back. */
const jsonlToOpenAISse = (jsonl: string) => `${jsonl.split('\n').filter((l) => l.trim()).map((l) => `data: ${l}\n\n`).join('')}data: [DONE]\n\n`;

async function openai(body: string, stream: boolean, status = 200): Promise<ModelResponse> {
  server.reply({ status, body, headers: stream ? SSE : {} });
  return createOpenAIProvider({ baseUrl: server.url }).call({ ...request, stream }, { fetch });
}

async function anthropic(body: string, stream: boolean): Promise<ModelResponse> {
  server.reply({ body, headers: stream ? SSE : {} });
  return createAnthropicProvider({ baseUrl: server.url }).call({ ...request, stream }, { fetch });
}

const parsedCalls = (res: ModelResponse) => (res.toolCalls ?? []).map((c) => ({ id: c.id, name: c.name, input: JSON.parse(c.arguments) as unknown }));

/** Every file the tests below replay; checked against the folders at the end. */
const replayed = new Set<string>();
const mark = (file: string): string => {
  replayed.add(file);
  return file;
};
const EXPECTED = [
  'openai-text.response.json', 'openai-text.stream.sse', 'compat-tool-call-stream.sse', 'groq-tool-call.chunks.jsonl',
  'deepseek-reasoner-tool-call.chunks.jsonl', 'error-unsupported-parameter.json',
  ...['anthropic-text', 'anthropic-json-output-format.1', 'anthropic-json-tool.1', 'anthropic-tool-no-args', 'anthropic-refusal'].flatMap((n) => [`${n}.response.json`, `${n}.chunks.jsonl`]),
  'anthropic-message-delta-input-tokens.chunks.jsonl', 'basic_response.sse', 'tool_use_response.sse', 'max_tokens_incomplete_tool_json.sse',
];

describe('OpenAI-compatible recordings', () => {
  it('openai-text: the completion and its stream read the same, with token details', async () => {
    const body = await openai(readCorpus(`openai-recorded/${mark('openai-text.response.json')}`), false);
    expect(body).toMatchObject({ finishReason: 'stop', usage: { cachedInputTokens: 0, reasoningTokens: 0 } });
    const streamed = await openai(readCorpus(`openai-recorded/${mark('openai-text.stream.sse')}`), true);
    expect(streamed.finishReason).toBe('stop');
    expect(streamed.text.length).toBeGreaterThan(100);
    expect(streamed.toolCalls).toBeUndefined();
  });

  it('compat-tool-call-stream: a tool call whose index starts at 1, arguments split across chunks', async () => {
    const res = await openai(readCorpus(`openai-recorded/${mark('compat-tool-call-stream.sse')}`), true);
    expect(res.finishReason).toBe('tool_calls');
    expect(res.toolCalls).toHaveLength(1);
    expect(res.toolCalls?.[0]?.name).toBeTruthy();
    expect(() => JSON.parse(res.toolCalls?.[0]?.arguments ?? '')).not.toThrow();
  });

  it('groq-tool-call: a whole tool call in one chunk, usage in x_groq', async () => {
    const res = await openai(jsonlToOpenAISse(readCorpus(`openai-recorded/${mark('groq-tool-call.chunks.jsonl')}`)), true);
    expect(res.toolCalls).toEqual([{ id: 'tk85n1k4m', name: 'weather', arguments: '{}' }]);
    expect(res.finishReason).toBe('tool_calls');
    expect(res.usage.inputTokens).toBe(210);
    expect(res.text).toBe('');
  });

  it('deepseek-reasoner-tool-call: reasoning_content, then a tool call; cached and reasoning tokens', async () => {
    const res = await openai(jsonlToOpenAISse(readCorpus(`openai-recorded/${mark('deepseek-reasoner-tool-call.chunks.jsonl')}`)), true);
    expect(res.reasoning).toMatch(/^The user is/);
    expect(res.toolCalls).toHaveLength(1);
    expect(JSON.parse(res.toolCalls?.[0]?.arguments ?? 'null')).toBeTypeOf('object');
    expect(res.usage).toEqual({ inputTokens: 339, outputTokens: 83, cachedInputTokens: 320, reasoningTokens: 39 });
  });

  it('error-unsupported-parameter: a 400 that names the parameter', async () => {
    const err = await openai(readCorpus(`openai-recorded/${mark('error-unsupported-parameter.json')}`), false, 400).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).code).toBe('bad_request');
    expect((err as ProviderError).message).toContain('max_completion_tokens');
  });
});

describe('Anthropic recordings', () => {
  const pairs = ['anthropic-text', 'anthropic-json-output-format.1', 'anthropic-json-tool.1', 'anthropic-tool-no-args', 'anthropic-refusal'];
  it.each(pairs)('%s: the recorded stream reads as the recorded Message', async (name) => {
    const body = await anthropic(readCorpus(`anthropic-recorded/${mark(`${name}.response.json`)}`), false);
    const streamed = await anthropic(jsonlToAnthropicSse(readCorpus(`anthropic-recorded/${mark(`${name}.chunks.jsonl`)}`)), true);
    expect(streamed.finishReason).toBe(body.finishReason);
    // The pairs are two recordings of one prompt, so the tool names and shapes match, not the ids.
    expect(parsedCalls(streamed).map((c) => c.name)).toEqual(parsedCalls(body).map((c) => c.name));
    expect(Boolean(streamed.text)).toBe(Boolean(body.text));
  });

  it('anthropic-json-tool.1: the tool input is kept whole, as the call arguments', async () => {
    const body = await anthropic(readCorpus('anthropic-recorded/anthropic-json-tool.1.response.json'), false);
    expect(body.finishReason).toBe('tool_calls');
    expect(parsedCalls(body)[0]).toMatchObject({ id: 'toolu_01Q9ExVZnzZj7E2QQYHYtNUa', name: 'json', input: { elements: expect.any(Array) } });
    const streamed = await anthropic(jsonlToAnthropicSse(readCorpus('anthropic-recorded/anthropic-json-tool.1.chunks.jsonl')), true);
    expect(parsedCalls(streamed)[0]?.input).toMatchObject({ elements: expect.any(Array) });
  });

  it('anthropic-tool-no-args: text beside a tool call with empty input', async () => {
    const streamed = await anthropic(jsonlToAnthropicSse(readCorpus('anthropic-recorded/anthropic-tool-no-args.chunks.jsonl')), true);
    expect(streamed.toolCalls?.[0]).toMatchObject({ name: 'updateIssueList', arguments: '{}' });
    expect(streamed.text).toContain('issue list');
  });

  it('anthropic-message-delta-input-tokens: the restated input count wins', async () => {
    const res = await anthropic(jsonlToAnthropicSse(readCorpus(`anthropic-recorded/${mark('anthropic-message-delta-input-tokens.chunks.jsonl')}`)), true);
    expect(res.usage.inputTokens).toBeGreaterThan(0);
    expect(res.finishReason).toBe('stop');
  });

  it('anthropic-sse/basic_response: text with a ping', async () => {
    const res = await anthropic(readCorpus(`anthropic-sse/${mark('basic_response.sse')}`), true);
    expect(res).toMatchObject({ finishReason: 'stop' });
    expect(res.text).toBeTruthy();
  });

  it('anthropic-sse/tool_use_response: text, then get_weather with input_json_delta fragments', async () => {
    const res = await anthropic(readCorpus(`anthropic-sse/${mark('tool_use_response.sse')}`), true);
    expect(res.finishReason).toBe('tool_calls');
    expect(parsedCalls(res)).toEqual([{ id: expect.stringMatching(/^toolu_/), name: 'get_weather', input: { location: 'Paris' } }]);
    expect(res.text).toBeTruthy();
  });

  it('anthropic-sse/max_tokens_incomplete_tool_json: the cut tool JSON is kept as sent, and the answer is a truncation', async () => {
    const res = await anthropic(readCorpus(`anthropic-sse/${mark('max_tokens_incomplete_tool_json.sse')}`), true);
    expect(res.finishReason).toBe('length');
    expect(res.toolCalls?.[0]?.name).toBe('make_file');
    expect(() => JSON.parse(res.toolCalls?.[0]?.arguments ?? '')).toThrow();
  });
});

describe('coverage of the recordings', () => {
  it('every recorded file in the corpus folders is replayed above', () => {
    const all = ['openai-recorded', 'anthropic-recorded', 'anthropic-sse'].flatMap((dir) => readdirSync(corpusPath(dir)));
    expect([...all].sort()).toEqual([...EXPECTED].sort());
    // The tests above read only listed files (the list is what they replay, not a wish list).
    for (const file of replayed) expect(EXPECTED).toContain(file);
  });
});
