import OpenAI from 'openai';
import { LengthFinishReasonError } from 'openai/error';
import { zodFunction, zodResponseFormat } from 'openai/helpers/zod';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createMockModelServer, type MockModelServer } from './mock-server.ts';

/**
 * The mock checked by OpenAI's own client: the `openai` package calls the mock in every mode
 * a chain or a user's code uses (create, streams and their helpers, `parse` with zod, tools,
 * every error class and retries). A shape the SDK cannot read fails here.
 */

const KEY = 'sk-mock-sdk-openai-key';
let server: MockModelServer;
let client: OpenAI;

beforeAll(async () => {
  server = await createMockModelServer({ apiKey: KEY });
  client = new OpenAI({ apiKey: KEY, baseURL: `${server.url}/v1`, maxRetries: 0 });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const model = 'gpt-mock';
const ask = [{ role: 'user' as const, content: 'A request must be filed within 120 days. How many days?' }];
const Weather = z.object({ city: z.string(), days: z.number().int() });
const weatherTool = zodFunction({ name: 'get_weather', parameters: Weather });

describe('openai against the mock', () => {
  it('create, with n choices', async () => {
    const one = await client.chat.completions.create({ model, messages: ask, max_completion_tokens: 200 });
    expect(one.choices).toHaveLength(1);
    expect(one.choices[0]?.finish_reason).toBe('stop');
    const three = await client.chat.completions.create({ model, messages: ask, n: 3 });
    expect(three.choices.map((c) => c.index)).toEqual([0, 1, 2]);
    await expect(client.chat.completions.create({ model, messages: ask, n: 129 })).rejects.toMatchObject({ status: 400, param: 'n' });
    server.enqueue({ content: 'Two ways.' });
    const streamed = await client.chat.completions.stream({ model, messages: ask, n: 2 }).finalChatCompletion();
    expect(streamed.choices.map((c) => c.message.content)).toEqual(['Two ways.', 'Two ways.']);
  });

  it('max_completion_tokens caps the answer: finish_reason length, and parse refuses it', async () => {
    const capped = await client.chat.completions.create({ model, messages: ask, max_completion_tokens: 2 });
    expect(capped.choices[0]?.finish_reason).toBe('length');
    expect(capped.usage?.completion_tokens).toBe(2);
    const Answer = z.object({ answer: z.string() });
    await expect(client.chat.completions.parse({ model, messages: ask, max_completion_tokens: 2, response_format: zodResponseFormat(Answer, 'answer') })).rejects.toBeInstanceOf(LengthFinishReasonError);
  });

  it('stream: raw chunks with usage, and the stream helper with finalContent', async () => {
    server.enqueue({ content: 'Within 120 days.' }, { content: 'Within 120 days.' });
    const raw = await client.chat.completions.create({ model, messages: ask, stream: true, stream_options: { include_usage: true } });
    let text = '';
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of raw) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe('Within 120 days.');
    expect(usage?.completion_tokens).toBeGreaterThan(0);
    const helper = client.chat.completions.stream({ model, messages: ask });
    const deltas: string[] = [];
    helper.on('content.delta', ({ delta }) => deltas.push(delta));
    expect(await helper.finalContent()).toBe('Within 120 days.');
    expect(deltas.join('')).toBe('Within 120 days.');
  });

  it('parse with zodResponseFormat: the default answer satisfies the schema', async () => {
    const Answer = z.object({ answer: z.string(), days: z.number().int() });
    const completion = await client.chat.completions.parse({ model, messages: ask, response_format: zodResponseFormat(Answer, 'answer') });
    expect(Answer.safeParse(completion.choices[0]?.message.parsed).success).toBe(true);
  });

  it.each([
    ['required', 'required' as const, 'tool_calls'],
    ['a named function', { type: 'function' as const, function: { name: 'get_weather' } }, 'stop'],
  ])('a forced tool choice (%s) is answered with a call whose arguments satisfy the schema', async (_label, toolChoice, finish) => {
    const completion = await client.chat.completions.parse({ model, messages: ask, tools: [weatherTool], tool_choice: toolChoice });
    const choice = completion.choices[0];
    expect(choice?.finish_reason).toBe(finish);
    const call = choice?.message.tool_calls?.[0];
    expect(call).toMatchObject({ type: 'function', id: expect.stringMatching(/^call_/), function: { name: 'get_weather' } });
    expect(Weather.safeParse(call?.type === 'function' ? call.function.parsed_arguments : null).success).toBe(true);
  });

  it('streamed tool calls: delta fragments are joined by index in finalChatCompletion', async () => {
    server.enqueue({ content: '', toolCalls: [{ id: 'call_a', name: 'get_weather', arguments: { city: 'Paris', days: 2 } }, { id: 'call_b', name: 'get_weather', arguments: { city: 'Oslo', days: 1 } }] });
    const stream = client.chat.completions.stream({ model, messages: ask, tools: [weatherTool] });
    const done: string[] = [];
    stream.on('tool_calls.function.arguments.done', ({ name, arguments: args }) => done.push(`${name}:${args}`));
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]?.finish_reason).toBe('tool_calls');
    expect(final.choices[0]?.message.tool_calls?.map((c) => (c.type === 'function' ? [c.id, c.function.parsed_arguments] : null))).toEqual([
      ['call_a', { city: 'Paris', days: 2 }],
      ['call_b', { city: 'Oslo', days: 1 }],
    ]);
    expect(done).toHaveLength(2);
  });

  it('runTools: the SDK calls the tool, sends the result back in order, and finishes', async () => {
    server.enqueue({ content: '', toolCalls: [{ id: 'call_run', name: 'get_weather', arguments: { city: 'Rome', days: 1 } }] }, { content: 'Sunny in Rome.' });
    const runner = client.chat.completions.runTools({
      model, messages: ask,
      tools: [{ type: 'function', function: { name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } } }, function: (args: { city: string }) => `sunny in ${args.city}`, parse: JSON.parse } }],
    });
    expect(await runner.finalContent()).toBe('Sunny in Rome.');
    const second = server.requests[1]?.body as { messages: { role: string; tool_call_id?: string }[] };
    expect(second.messages.slice(-2).map((m) => m.role)).toEqual(['assistant', 'tool']);
    expect(second.messages.at(-1)?.tool_call_id).toBe('call_run');
  });

  it('a strict tool schema without additionalProperties:false or with an optional property is refused', async () => {
    const loose = { type: 'function' as const, function: { name: 'f', strict: true, parameters: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] } } };
    await expect(client.chat.completions.create({ model, messages: ask, tools: [loose] })).rejects.toMatchObject({ status: 400, code: 'invalid_function_parameters', param: 'tools[0].function.parameters' });
    const optional = { type: 'function' as const, function: { name: 'f', strict: true, parameters: { type: 'object', properties: { a: { type: 'string' } }, required: [], additionalProperties: false } } };
    await expect(client.chat.completions.create({ model, messages: ask, tools: [optional] })).rejects.toBeInstanceOf(OpenAI.BadRequestError);
  });

  it('a tool message must answer a call of the assistant message before it', async () => {
    const orphan = [...ask, { role: 'tool' as const, tool_call_id: 'call_none', content: 'x' }];
    await expect(client.chat.completions.create({ model, messages: orphan })).rejects.toMatchObject({ status: 400, message: expect.stringContaining("messages with role 'tool' must be a response to a preceeding message with 'tool_calls'") });
    const unanswered = [...ask, { role: 'assistant' as const, tool_calls: [{ id: 'call_1', type: 'function' as const, function: { name: 'f', arguments: '{}' } }] }, { role: 'user' as const, content: 'and?' }];
    await expect(client.chat.completions.create({ model, messages: unanswered })).rejects.toMatchObject({ status: 400, message: expect.stringContaining('did not have response messages: call_1') });
  });

  it('cached and reasoning token counts and reasoning_content come through', async () => {
    server.enqueue({ content: 'Done.', reasoning: 'It says 120.', usage: { cachedInputTokens: 4 } });
    const completion = await client.chat.completions.create({ model, messages: ask });
    expect(completion.usage?.prompt_tokens_details?.cached_tokens).toBe(4);
    expect(completion.usage?.completion_tokens_details?.reasoning_tokens).toBeGreaterThan(0);
    expect((completion.choices[0]?.message as unknown as { reasoning_content: string }).reasoning_content).toBe('It says 120.');
  });

  it.each([
    [400, OpenAI.BadRequestError],
    [401, OpenAI.AuthenticationError],
    [403, OpenAI.PermissionDeniedError],
    [404, OpenAI.NotFoundError],
    [409, OpenAI.ConflictError],
    [422, OpenAI.UnprocessableEntityError],
    [429, OpenAI.RateLimitError],
    [500, OpenAI.InternalServerError],
    [503, OpenAI.InternalServerError],
  ])('status %i becomes the SDK error class for it', async (status, ErrorClass) => {
    server.enqueue({ fault: 'status', status });
    const err = await client.chat.completions.create({ model, messages: ask }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ErrorClass);
    expect((err as InstanceType<typeof OpenAI.APIError>).requestID).toMatch(/^req_/);
  });

  it('a wrong key gets AuthenticationError', async () => {
    const wrong = new OpenAI({ apiKey: 'sk-wrong', baseURL: `${server.url}/v1`, maxRetries: 0 });
    await expect(wrong.chat.completions.create({ model, messages: ask })).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
  });

  it('retries 429 and 5xx honouring retry-after-ms, and stops at maxRetries', async () => {
    const retrying = new OpenAI({ apiKey: KEY, baseURL: `${server.url}/v1`, maxRetries: 2 });
    server.enqueue({ fault: 'status', status: 429, headers: { 'retry-after-ms': '5' } }, { fault: 'status', status: 500, headers: { 'retry-after-ms': '5' } }, { content: 'Third time.' });
    const completion = await retrying.chat.completions.create({ model, messages: ask });
    expect(completion.choices[0]?.message.content).toBe('Third time.');
    expect(server.requests.map((r) => r.headers['x-stainless-retry-count'])).toEqual(['0', '1', '2']);
    server.reset();
    server.enqueue(...[1, 2, 3].map(() => ({ fault: 'status' as const, status: 503, headers: { 'retry-after-ms': '5' } })));
    await expect(retrying.chat.completions.create({ model, messages: ask })).rejects.toBeInstanceOf(OpenAI.InternalServerError);
    expect(server.requests).toHaveLength(3);
  });

  it('a mid-stream error and a chunk with bad JSON both fail the SDK stream', async () => {
    server.enqueue({ fault: 'stream_error', afterChunks: 2 });
    await expect(client.chat.completions.stream({ model, messages: ask }).finalContent()).rejects.toBeInstanceOf(OpenAI.APIError);
    server.enqueue({ fault: 'invalid_json' });
    await expect(client.chat.completions.stream({ model, messages: ask }).finalContent()).rejects.toThrow();
  });
});
