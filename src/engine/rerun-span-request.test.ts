import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../providers/anthropic.ts';
import { createDemoProvider } from '../providers/demo-model.ts';
import { createOpenAIProvider } from '../providers/openai.ts';
import { demoProfile, runModelSettings } from '../providers/profiles.ts';
import { stepRegistry } from '../steps/index.ts';
import { createMockModelServer, type MockModelServer } from '../testing/mock-server.ts';
import type { AttemptRecord, RunMeta, TraceEvent } from '../trace/events.ts';
import { importOtlpTrace } from '../trace/otlp/import.ts';
import { attributes, type AttrValue } from '../trace/otlp/otlp-json.ts';
import { createMemoryRunRepository } from '../trace/repository.ts';
import { rerunSpan } from './rerun-span.ts';

/**
 * A rerun sends the recorded call's output contract, tools, tool choice and streaming again and
 * names what of the recorded request it did not send. The traces are hand-built from the keys
 * OpenInference's OpenAI and Anthropic instrumentations write (the body in `input.value`, the
 * parameters in `llm.invocation_parameters`); the mock server receives the requests over HTTP.
 */
const KEY = 'sk-rerun-request-0123456789abcdef';
let mock: MockModelServer;
beforeEach(async () => {
  mock = await createMockModelServer({ apiKey: KEY });
});
afterEach(() => mock.close());

function trace(spans: Record<string, AttrValue>[]): { meta: RunMeta; events: TraceEvent[] } {
  const text = JSON.stringify({
    resourceSpans: [{
      resource: { attributes: attributes({ 'service.name': 'svc' }) },
      scopeSpans: [{
        scope: { name: 'openinference' },
        spans: spans.map((attrs, i) => ({
          traceId: '0af7651916cd43dd8448eb211c80319c', spanId: `b7ad6b716920333${i}`, name: 'ChatCompletion', kind: 'SPAN_KIND_CLIENT',
          startTimeUnixNano: `${1700000000 + i * 2}000000000`, endTimeUnixNano: `${1700000001 + i * 2}000000000`,
          attributes: attributes({ 'openinference.span.kind': 'LLM', 'llm.system': 'openai', ...attrs }), status: { code: 'STATUS_CODE_OK' },
        })),
      }],
    }],
  });
  const result = importOtlpTrace(text, stepRegistry);
  if (!result.ok) throw new Error(result.message);
  return { meta: result.run, events: result.events };
}

const answerSchema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false };
const lookup = { type: 'function', function: { name: 'lookup', description: 'Look a city up', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } };
const completion = (content: string) => JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] });

/** Two calls: the first asked for a JSON Schema, offered a tool and streamed; the second reads its answer. */
function openAITrace() {
  const first = { model: 'gpt-4o', messages: [{ role: 'user', content: 'Capital of France?' }], max_tokens: 200, response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: answerSchema, strict: true } }, tools: [lookup], tool_choice: 'required', stream: true, top_p: 0.9, seed: 7 };
  const second = { model: 'gpt-4o', messages: [{ role: 'user', content: 'Say it in a sentence: {"answer":"Paris"}' }], temperature: 0.3, presence_penalty: 0.5, stop: ['END'] };
  const span = (body: Record<string, unknown>, out: string) => ({
    'llm.model_name': 'gpt-4o', 'input.value': JSON.stringify(body), 'input.mime_type': 'application/json', 'output.value': completion(out), 'output.mime_type': 'application/json',
    'llm.invocation_parameters': JSON.stringify(Object.fromEntries(Object.entries(body).filter(([k]) => k !== 'messages'))),
  });
  return trace([span(first, '{"answer":"Paris"}'), span(second, 'The capital is Paris.')]);
}

const attemptsOf = (events: readonly TraceEvent[]) => events.flatMap((e) => (e.type === 'step.attempt' ? [e.record] : []));
type Body = Record<string, unknown>;

describe('rerunning a span of an OpenAI-shaped trace', () => {
  it('sends the recorded response_format, tools, tool_choice, stream, top_p and seed', async () => {
    const { meta, events } = openAITrace();
    const repo = createMemoryRunRepository();
    mock.enqueue({ content: '', toolCalls: [{ name: 'lookup', arguments: { city: 'Rome' } }] }, { content: 'The capital is Rome.' });
    const fork = await rerunSpan({
      parent: meta, parentEvents: events, fromStep: 'ChatCompletion', repo,
      provider: createOpenAIProvider({ baseUrl: `${mock.url}/v1`, apiKey: KEY }), model: { name: 'mock-model', maxOutputTokens: 512, structuredOutput: true },
      messages: [{ role: 'user', content: 'Capital of Italy?' }],
    });
    expect(fork.status).toBe('succeeded');
    const [first, second] = mock.requests.map((r) => r.body as Body);
    expect(first).toMatchObject({
      max_tokens: 200, stream: true,
      response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: answerSchema, strict: true } },
      tools: [lookup], tool_choice: 'required',
    });
    expect(first).toMatchObject({ top_p: 0.9, seed: 7 });
    const stored = await repo.getEvents(fork.id);
    const [a, b] = attemptsOf(stored) as [AttemptRecord, AttemptRecord];
    expect(a.params).toMatchObject({ structured: true, stream: true, maxTokens: 200 });
    expect(a.asRecorded).toEqual({
      sent: ['max_tokens 200', 'response_format json_schema "answer" (strict)', 'tools: lookup', 'tool_choice required', 'top_p 0.9', 'seed 7', 'stream'],
      notSent: [], added: [], settingsRecorded: true,
    });
    // The tool-only reply's output is its call, as the import records one.
    expect(stored.find((e) => e.type === 'step.finished' && e.stepId === 'ChatCompletion')).toMatchObject({ output: [{ name: 'lookup', arguments: { city: 'Rome' } }] });

    // The later call, rerun because it read the first one's answer, is sent as its own record says.
    expect(second).toMatchObject({ temperature: 0.3, max_tokens: 512, presence_penalty: 0.5, stop: ['END'] });
    for (const key of ['response_format', 'tools', 'stream']) expect(second).not.toHaveProperty(key);
    expect(b.params).toMatchObject({ structured: false, stream: false });
    expect(b.asRecorded).toEqual({
      sent: ['temperature 0.3', 'stop ["END"]', 'presence_penalty 0.5'], notSent: [],
      added: ["max_tokens 512 (the endpoint profile's: the trace recorded none)"], settingsRecorded: true,
    });
  });

  it('a rerun of the rerun reads the exact body the first rerun sent', async () => {
    const { meta, events } = openAITrace();
    const repo = createMemoryRunRepository();
    const endpoint = { provider: createOpenAIProvider({ baseUrl: `${mock.url}/v1`, apiKey: KEY }), model: { name: 'mock-model', maxOutputTokens: 512, structuredOutput: true } };
    mock.enqueue({ content: { answer: 'Rome' } }, { content: 'Rome.' }, { content: { answer: 'Madrid' } }, { content: 'Madrid.' });
    const first = await rerunSpan({ parent: meta, parentEvents: events, fromStep: 'ChatCompletion', repo, ...endpoint, messages: [{ role: 'user', content: 'Capital of Italy?' }] });
    const again = await rerunSpan({ parent: (await repo.getRun(first.id)) as RunMeta, parentEvents: await repo.getEvents(first.id), fromStep: 'ChatCompletion', repo, ...endpoint, messages: [{ role: 'user', content: 'Capital of Spain?' }] });
    expect(again.status).toBe('succeeded');
    const third = mock.requests[2]?.body as Body;
    expect(third).toMatchObject({ stream: true, tool_choice: 'required', response_format: { type: 'json_schema' } });
    // What the first rerun did not send is no longer in the body it is rerun from.
    expect(attemptsOf(await repo.getEvents(again.id))[0]?.asRecorded?.notSent).toEqual([]);
  });

  it('with the profile’s structured output off, the schema is named as not sent and the attempt is not marked structured', async () => {
    const { meta, events } = openAITrace();
    const repo = createMemoryRunRepository();
    mock.enqueue({ content: '{"answer":"Rome"}' }, { content: 'Rome.' });
    const fork = await rerunSpan({
      parent: meta, parentEvents: events, fromStep: 'ChatCompletion', repo,
      provider: createOpenAIProvider({ baseUrl: `${mock.url}/v1`, apiKey: KEY, structuredOutput: false }), model: { name: 'mock-model', maxOutputTokens: 512, structuredOutput: false },
      messages: [{ role: 'user', content: 'Capital of Italy?' }],
    });
    expect(mock.requests[0]?.body).not.toHaveProperty('response_format');
    const record = attemptsOf(await repo.getEvents(fork.id))[0];
    expect(record?.params.structured).toBe(false);
    expect(record?.asRecorded?.notSent[0]).toBe('response_format json_schema "answer" (strict) (the endpoint profile has structured output off)');
  });
});

describe('the fork says what the provider actually sent', () => {
  it('on the offline demo model, which sends no tools, the tools and tool choice are named as not sent', async () => {
    const { meta, events } = openAITrace();
    const repo = createMemoryRunRepository();
    const fork = await rerunSpan({
      parent: meta, parentEvents: events, fromStep: 'ChatCompletion', repo, provider: createDemoProvider(), model: runModelSettings(demoProfile),
      messages: [{ role: 'user', content: 'Capital of Italy?' }],
    });
    const record = attemptsOf(await repo.getEvents(fork.id))[0];
    expect(record?.requestBody).not.toHaveProperty('tools');
    expect(record?.asRecorded).toMatchObject({
      sent: ['max_tokens 200', 'response_format json_schema "answer" (strict)', 'stream'],
      notSent: ["tools: lookup (the endpoint's provider left it out)", "tool_choice required (the endpoint's provider left it out)", "top_p 0.9 (the endpoint's provider left it out)", "seed 7 (the endpoint's provider left it out)"],
    });
  });
});

describe('rerunning a span of an Anthropic-shaped trace (tool-forced JSON)', () => {
  it('sends the tool with its input schema, the forced tool_choice and stop_sequences; top_k, which the current API version refuses, is named', async () => {
    const tool = { name: 'record_answer', description: 'Record the answer', input_schema: answerSchema };
    const { meta, events } = trace([{
      'llm.system': 'anthropic', 'llm.model_name': 'claude-sonnet-4-5',
      'llm.invocation_parameters': JSON.stringify({ max_tokens: 256, tools: [tool], tool_choice: { type: 'tool', name: 'record_answer' }, top_k: 5, stop_sequences: ['###'] }),
      'llm.input_messages.0.message.role': 'user', 'llm.input_messages.0.message.content': 'Capital of France?',
      'llm.output_messages.0.message.role': 'assistant',
      'llm.output_messages.0.message.tool_calls.0.tool_call.id': 'toolu_1', 'llm.output_messages.0.message.tool_calls.0.tool_call.function.name': 'record_answer',
      'llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments': '{"answer":"Paris"}',
    }]);
    const repo = createMemoryRunRepository();
    mock.enqueue({ content: '', toolCalls: [{ name: 'record_answer', arguments: { answer: 'Rome' } }] });
    const fork = await rerunSpan({
      parent: meta, parentEvents: events, fromStep: 'ChatCompletion', repo,
      provider: createAnthropicProvider({ baseUrl: mock.url, apiKey: KEY }), model: { name: 'claude-mock', maxOutputTokens: 512, structuredOutput: true },
      messages: [{ role: 'user', content: 'Capital of Italy?' }],
    });
    expect(fork.status).toBe('succeeded');
    const body = mock.requests[0]?.body as Body;
    expect(body).toMatchObject({ max_tokens: 256, tools: [tool], tool_choice: { type: 'tool', name: 'record_answer' } });
    expect(body).toMatchObject({ stop_sequences: ['###'] });
    expect(body).not.toHaveProperty('top_k');
    expect(attemptsOf(await repo.getEvents(fork.id))[0]?.asRecorded).toEqual({
      sent: ['max_tokens 256', 'tools: record_answer', 'tool_choice record_answer', 'stop_sequences ["###"]'], notSent: ["top_k 5 (the endpoint's provider left it out)"], added: [], settingsRecorded: true,
    });
  });
});

describe('JSON mode, tool_choice none and sampling, over the wire', () => {
  const recorded = (body: Record<string, unknown>) => trace([{
    'llm.model_name': 'gpt-4o', 'input.value': JSON.stringify(body), 'input.mime_type': 'application/json', 'output.value': completion('{"answer":"Paris"}'), 'output.mime_type': 'application/json',
  }]);
  const body = {
    model: 'gpt-4o', messages: [{ role: 'user', content: 'Capital of France? Answer in JSON.' }], max_tokens: 100,
    response_format: { type: 'json_object' }, tools: [lookup], tool_choice: 'none', top_p: 0.5, seed: 11, frequency_penalty: 0.2, stop: 'END',
  };

  it('OpenAI: all of it is sent, and the mock (which checks the body as the API does) accepts it', async () => {
    const { meta, events } = recorded(body);
    const repo = createMemoryRunRepository();
    mock.enqueue({ content: '{"answer":"Rome"}' });
    const fork = await rerunSpan({
      parent: meta, parentEvents: events, fromStep: 'ChatCompletion', repo,
      provider: createOpenAIProvider({ baseUrl: `${mock.url}/v1`, apiKey: KEY }), model: { name: 'mock-model', maxOutputTokens: 512, structuredOutput: true },
      messages: [{ role: 'user', content: 'Capital of Italy? Answer in JSON.' }],
    });
    expect(fork.status).toBe('succeeded');
    expect(mock.requests[0]?.body).toMatchObject({ response_format: { type: 'json_object' }, tool_choice: 'none', top_p: 0.5, seed: 11, frequency_penalty: 0.2, stop: ['END'] });
    expect(attemptsOf(await repo.getEvents(fork.id))[0]?.asRecorded).toEqual({
      sent: ['max_tokens 100', 'response_format json_object', 'tools: lookup', 'tool_choice none', 'top_p 0.5', 'seed 11', 'stop END', 'frequency_penalty 0.2'],
      notSent: [], added: [], settingsRecorded: true,
    });
  });

  it('Anthropic: tool_choice none and the stops are sent; JSON mode, the seed and the penalty have no place there and are named', async () => {
    const { meta, events } = recorded(body);
    const repo = createMemoryRunRepository();
    mock.enqueue({ content: '{"answer":"Rome"}' });
    const fork = await rerunSpan({
      parent: meta, parentEvents: events, fromStep: 'ChatCompletion', repo,
      provider: createAnthropicProvider({ baseUrl: mock.url, apiKey: KEY }), model: { name: 'claude-mock', maxOutputTokens: 512, structuredOutput: true },
      messages: [{ role: 'user', content: 'Capital of Italy? Answer in JSON.' }],
    });
    expect(fork.status).toBe('succeeded');
    const sent = mock.requests[0]?.body as Body;
    expect(sent).toMatchObject({ tool_choice: { type: 'none' }, stop_sequences: ['END'] });
    for (const key of ['response_format', 'seed', 'frequency_penalty', 'top_p']) expect(sent).not.toHaveProperty(key);
    const fidelity = attemptsOf(await repo.getEvents(fork.id))[0]?.asRecorded;
    expect(fidelity?.sent).toEqual(['max_tokens 100', 'tools: lookup', 'tool_choice none', 'stop END']);
    expect(fidelity?.notSent).toEqual([
      "response_format json_object (the endpoint's provider left it out)", "top_p 0.5 (the endpoint's provider left it out)",
      "seed 11 (the endpoint's provider left it out)", "frequency_penalty 0.2 (the endpoint's provider left it out)",
    ]);
  });
});
