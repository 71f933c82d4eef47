import Anthropic from '@anthropic-ai/sdk';
import { zodOutputFormat } from '@anthropic-ai/sdk/helpers/zod';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createMockModelServer, type MockModelServer } from './mock-server.ts';

/**
 * The mock checked by Anthropic's own client: @anthropic-ai/sdk (current major, which sends
 * `anthropic-version: 2026-10-21` and the key as `Authorization: Bearer`) calls the mock in
 * every mode a chain or a user's code uses. A shape the SDK cannot read fails here.
 */

const KEY = 'sk-ant-mock-sdk-key';
let server: MockModelServer;
let client: Anthropic;

beforeAll(async () => {
  server = await createMockModelServer({ apiKey: KEY });
  client = new Anthropic({ apiKey: KEY, baseURL: server.url, maxRetries: 0 });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const model = 'claude-mock';
const ask = [{ role: 'user' as const, content: 'A request must be filed within 120 days. How many days?' }];
const weather = {
  name: 'get_weather',
  description: 'Weather for a city',
  input_schema: { type: 'object' as const, properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city', 'days'], additionalProperties: false },
};
const validates = (schema: object, value: unknown) => new Ajv2020({ strict: false }).validate(schema, value);

describe('@anthropic-ai/sdk against the mock', () => {
  it('create: the SDK sends the current version and a Bearer key, and reads the full current Message', async () => {
    const message = await client.messages.create({ model, max_tokens: 200, messages: ask });
    expect(server.requests[0]?.headers['anthropic-version']).toBe('2026-10-21');
    expect(server.requests[0]?.headers.authorization).toBe('[redacted]');
    expect(server.requests[0]?.headers['x-api-key']).toBeUndefined();
    expect(message).toMatchObject({ type: 'message', role: 'assistant', container: null, diagnostics: null, stop_details: null, stop_reason: 'end_turn' });
    expect(message.usage).toMatchObject({ cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 }, inference_geo: 'not_available', server_tool_use: null });
    expect(message.content[0]).toMatchObject({ type: 'text', citations: null });
  });

  it('a wrong key gets AuthenticationError; x-api-key is read before Bearer', async () => {
    const wrong = new Anthropic({ apiKey: 'sk-ant-wrong', baseURL: server.url, maxRetries: 0 });
    await expect(wrong.messages.create({ model, max_tokens: 10, messages: ask })).rejects.toBeInstanceOf(Anthropic.AuthenticationError);
    const both = new Anthropic({ apiKey: 'sk-ant-wrong', baseURL: server.url, maxRetries: 0, defaultHeaders: { 'x-api-key': KEY } });
    await expect(both.messages.create({ model, max_tokens: 10, messages: ask })).resolves.toMatchObject({ type: 'message' });
  });

  it('consecutive turns of one role are combined, not refused', async () => {
    const message = await client.messages.create({ model, max_tokens: 50, messages: [...ask, { role: 'user', content: 'Answer briefly.' }] });
    expect(message.type).toBe('message');
  });

  it('max_tokens 0 is accepted and generates nothing', async () => {
    const message = await client.messages.create({ model, max_tokens: 0, messages: ask });
    expect(message.content).toEqual([]);
    expect(message.stop_reason).toBe('max_tokens');
    expect(message.usage.output_tokens).toBe(0);
  });

  it('2026-10-21 refuses sampling parameters; 2023-06-01 takes them', async () => {
    const body = { model, max_tokens: 20, messages: ask, temperature: 0.2 } as Anthropic.MessageCreateParamsNonStreaming;
    await expect(client.messages.create(body)).rejects.toMatchObject({ status: 400, message: expect.stringContaining('temperature: Extra inputs are not permitted') });
    const old = new Anthropic({ apiKey: KEY, baseURL: server.url, maxRetries: 0, defaultHeaders: { 'anthropic-version': '2023-06-01' } });
    const message = await old.messages.create(body);
    // The older version answers in the recorded shape, without the fields added since.
    expect(message).not.toHaveProperty('container');
  });

  it('count_tokens answers {input_tokens}', async () => {
    const counted = await client.messages.countTokens({ model, messages: ask, tools: [weather] });
    expect(counted.input_tokens).toBeGreaterThan(0);
  });

  it('stream helper: text events, finalText and finalMessage', async () => {
    server.enqueue({ content: 'Within 120 days.' });
    const pieces: string[] = [];
    const stream = client.messages.stream({ model, max_tokens: 100, messages: ask }).on('text', (t) => pieces.push(t));
    expect(await stream.finalText()).toBe('Within 120 days.');
    expect(pieces.join('')).toBe('Within 120 days.');
    expect((await stream.finalMessage()).stop_reason).toBe('end_turn');
  });

  it('parse with zodOutputFormat: the default answer satisfies the schema', async () => {
    const Answer = z.object({ answer: z.string(), days: z.number().int() });
    const message = await client.messages.parse({ model, max_tokens: 300, messages: ask, output_config: { format: zodOutputFormat(Answer) } });
    expect(Answer.safeParse(message.parsed_output).success).toBe(true);
  });

  it.each([
    ['a named tool', { type: 'tool' as const, name: 'get_weather' }],
    ['any tool', { type: 'any' as const }],
  ])('a forced tool choice (%s) is answered with a tool_use whose input satisfies the schema', async (_label, toolChoice) => {
    const message = await client.messages.create({ model, max_tokens: 300, messages: ask, tools: [weather], tool_choice: toolChoice });
    expect(message.stop_reason).toBe('tool_use');
    const block = message.content.find((b) => b.type === 'tool_use');
    expect(block).toMatchObject({ type: 'tool_use', name: 'get_weather', id: expect.stringMatching(/^toolu_/), caller: { type: 'direct' } });
    expect(validates(weather.input_schema, (block as Anthropic.ToolUseBlock).input)).toBe(true);
  });

  it('streamed tool use: input_json_delta fragments assemble into the input, and the tool result goes back', async () => {
    server.enqueue({ content: 'Checking.', toolCalls: [{ id: 'toolu_01scripted', name: 'get_weather', arguments: { city: 'Paris', days: 3 } }] });
    const stream = client.messages.stream({ model, max_tokens: 300, messages: ask, tools: [weather] });
    const jsonPieces: string[] = [];
    stream.on('inputJson', (partial) => jsonPieces.push(partial));
    const message = await stream.finalMessage();
    expect(jsonPieces.length).toBeGreaterThan(1);
    expect(message.content).toMatchObject([{ type: 'text', text: 'Checking.' }, { type: 'tool_use', id: 'toolu_01scripted', input: { city: 'Paris', days: 3 } }]);
    const next = await client.messages.create({
      model, max_tokens: 100, tools: [weather],
      messages: [...ask, { role: 'assistant', content: message.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01scripted', content: 'Sunny' }] }],
    });
    expect(next.stop_reason).toBe('end_turn');
  });

  it('a tool_use with no tool_result after it is refused as the API does', async () => {
    const err = await client.messages.create({
      model, max_tokens: 50, tools: [weather],
      messages: [...ask, { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_x', name: 'get_weather', input: {} }] }, { role: 'user', content: 'And?' }],
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    expect((err as Error).message).toContain('`tool_use` ids were found without `tool_result` blocks');
  });

  it('extended thinking with a forced tool is refused, as the API does', async () => {
    const err = await client.messages.create({ model, max_tokens: 2000, messages: ask, tools: [weather], tool_choice: { type: 'any' }, thinking: { type: 'enabled', budget_tokens: 1024 } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    expect((err as Error).message).toContain('Thinking may not be enabled when tool_choice forces tool use');
  });

  it('thinking and reasoning: a scripted thinking block reaches the SDK', async () => {
    server.enqueue({ content: 'Done.', reasoning: 'The text says 120 days.' });
    const message = await client.messages.stream({ model, max_tokens: 300, messages: ask }).finalMessage();
    expect(message.content[0]).toMatchObject({ type: 'thinking', thinking: 'The text says 120 days.' });
  });

  it.each([
    [400, Anthropic.BadRequestError],
    [401, Anthropic.AuthenticationError],
    [403, Anthropic.PermissionDeniedError],
    [404, Anthropic.NotFoundError],
    [409, Anthropic.ConflictError],
    [413, Anthropic.ContentTooLargeError],
    [422, Anthropic.UnprocessableEntityError],
    [429, Anthropic.RateLimitError],
    [500, Anthropic.InternalServerError],
    [529, Anthropic.OverloadedError],
  ])('status %i becomes the SDK error class for it', async (status, ErrorClass) => {
    server.enqueue({ fault: 'status', status });
    const err = await client.messages.create({ model, max_tokens: 10, messages: ask }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ErrorClass);
    expect((err as InstanceType<typeof Anthropic.APIError>).requestID).toMatch(/^req_/);
  });

  it('429 and 529 carry retry-after, and the SDK retries after it', async () => {
    const retrying = new Anthropic({ apiKey: KEY, baseURL: server.url, maxRetries: 2 });
    server.enqueue({ fault: 'status', status: 429 }, { fault: 'status', status: 529, headers: { 'retry-after-ms': '5' } }, { content: 'After two retries.' });
    const message = await retrying.messages.create({ model, max_tokens: 50, messages: ask });
    expect(message.content[0]).toMatchObject({ text: 'After two retries.' });
    expect(server.requests.map((r) => r.headers['x-stainless-retry-count'])).toEqual(['0', '1', '2']);
  });

  it('a mid-stream error event and a stream with bad JSON both fail the SDK stream', async () => {
    server.enqueue({ fault: 'stream_error', afterChunks: 2 });
    await expect(client.messages.stream({ model, max_tokens: 50, messages: ask }).finalMessage()).rejects.toBeInstanceOf(Anthropic.APIError);
    server.enqueue({ fault: 'invalid_json' });
    await expect(client.messages.stream({ model, max_tokens: 50, messages: ask }).finalMessage()).rejects.toThrow();
  });
});
