import { describe, expect, it } from 'vitest';
import { readCorpus } from '../../testing/corpus.ts';
import { stepRegistry } from '../../steps/index.ts';
import type { Chain } from '../../chain/schema.ts';
import { parseChain } from '../../chain/parse.ts';
import { buildRunView } from '../replay.ts';
import { importLangfuseExport } from './langfuse.ts';

/** Real Langfuse exports (src/testing/corpus/vendor-traces, see its README). */
function load(name: string) {
  const result = importLangfuseExport(readCorpus(`vendor-traces/langfuse-export-${name}.trace.json`), stepRegistry);
  if (!result.ok) throw new Error(result.message);
  const view = buildRunView(result.run, result.events, stepRegistry);
  return { ...result, view, record: (i: number) => view.steps[i]?.attempts[0]?.record };
}

describe('importLangfuseExport on real exports', () => {
  it('Vercel AI SDK: the doGenerate generation inside ai.generateText is the call; its reply is one tool call', () => {
    const { run, view, record, warnings } = load('vercel-aisdk-2025-11-17');
    expect(view.steps.map((s) => [s.stepId, s.name])).toEqual([['ai_generateText_doGenerate', 'ai.generateText.doGenerate']]);
    expect(record(0)).toMatchObject({
      messages: [{ role: 'user', content: 'What is the weather like today in San Francisco?' }],
      text: '', toolCalls: [{ id: 'call_DgKARp7a7IhJPDczfifMp6Ra', name: 'getWeather', arguments: '{"location":"San Francisco"}' }],
      finishReason: 'tool_calls', rawFinishReason: 'tool-calls', usage: { inputTokens: 62, outputTokens: 85 }, costUsd: 0.000927499999,
      params: { model: 'gpt-5' }, latencyMs: 3043,
    });
    expect(view.steps[0]?.output).toEqual([{ id: 'call_DgKARp7a7IhJPDczfifMp6Ra', name: 'getWeather', arguments: { location: 'San Francisco' } }]);
    expect(warnings).toEqual(['1 generation(s) wrapping another generation were merged into the inner one', '1 observation(s) that are not generations made no step (they are in the span tree): "getWeather (TOOL)"']);
    expect(run).toMatchObject({ provider: 'openai.responses', model: 'gpt-5', status: 'succeeded', chainName: 'ai.generateText', startedAt: Date.parse('2025-11-17T14:55:18.786Z') });
    expect((run.chain as Chain).meta?.importedFrom).toEqual(['Langfuse export']);
    expect((run.chain as Chain).description).toMatch(/^Reconstructed from a Langfuse trace export: one model step per recorded LLM call\./);
  });

  it('OpenAI Agents SDK: Responses API items; instructions become the system message; the tool round trip is visible in the second call', () => {
    const { record, run } = load('openai-agents-2025-09-30');
    expect(record(0)).toMatchObject({
      messages: [{ role: 'system', content: 'You are a helpful agent.' }, { role: 'user', content: "What's the weather in Tokyo?" }],
      text: '', toolCalls: [{ id: 'call_Kud0j0DxWSmLzv9W5m6qVqXn', name: 'get_weather', arguments: '{"city":"Tokyo"}' }],
      usage: { inputTokens: 55, outputTokens: 15, cachedInputTokens: 0, reasoningTokens: 0 }, params: { model: 'gpt-4.1-2025-04-14', temperature: 1 },
    });
    expect(record(1)?.messages.slice(2)).toEqual([
      { role: 'assistant', content: '[tool call get_weather id=call_Kud0j0DxWSmLzv9W5m6qVqXn] {"city":"Tokyo"}' },
      { role: 'user', content: '[tool result id=call_Kud0j0DxWSmLzv9W5m6qVqXn] The weather in Tokyo is sunny.' },
    ]);
    expect(record(1)?.text).toBe('The weather in Tokyo is currently sunny. If you need more details like temperature or forecast for the upcoming days, just let me know!');
    expect(run.usage).toMatchObject({ inputTokens: 140, outputTokens: 44, cachedInputTokens: 0, reasoningTokens: 0 });
  });

  it('Google ADK: Gemini contents and candidates, the system instruction, "model" turns as the assistant', () => {
    const { record, view } = load('google-adk-2025-08-28');
    expect(record(0)).toMatchObject({
      messages: [{ role: 'system', content: 'Always greet using the say_hello tool.\n\nYou are an agent. Your internal name is "hello_agent".' }, { role: 'user', content: 'hi' }],
      text: '', toolCalls: [{ id: '', name: 'say_hello', arguments: '{}' }], finishReason: 'stop', rawFinishReason: 'STOP', usage: { inputTokens: 28, outputTokens: 3 },
    });
    expect(record(1)?.messages.slice(2)).toEqual([
      { role: 'assistant', content: '[tool call say_hello] {}' },
      { role: 'user', content: '[tool result id=say_hello] {"greeting":"Hello Langfuse 👋"}' },
    ]);
    expect(record(1)?.text).toBe('Hello Langfuse 👋!\n');
    expect(view.steps.map((s) => s.stepId)).toEqual(['call_llm', 'call_llm_2']);
  });

  it('Claude Agent SDK: Anthropic content blocks; tool_use blocks are tool calls with their ids', () => {
    const { record, view } = load('claude-agent-2025-12-22');
    expect(view.steps).toHaveLength(4);
    expect(record(0)).toMatchObject({ messages: [{ role: 'user', content: "What's the weather like in Berlin and New York?" }], text: "I'll check the weather in both Berlin and New York for you." });
    expect([record(1)?.toolCalls, record(2)?.toolCalls]).toEqual([
      [{ id: 'toolu_01TKoqQLvY2UWuC49qnD48y7', name: 'mcp__weather__get_weather', arguments: '{"city":"Berlin"}' }],
      [{ id: 'toolu_01NtVat4vJLFfVd5TqdLHcA7', name: 'mcp__weather__get_weather', arguments: '{"city":"New York"}' }],
    ]);
    // The export itself records these turns' input as {"content":"role"}: imported as it is.
    expect(record(1)?.messages).toEqual([{ role: 'user', content: 'role' }]);
    expect(record(3)?.text).toMatch(/^Great! Here's the current weather for both cities:\n\n\*\*Berlin\*\*: Cloudy, 59°F/);
  });

  it('pydantic-ai: OpenAI messages with event attributes; the run parses as a chain', () => {
    const { run, record, view } = load('pydantic-ai-2025-06-06');
    expect(record(0)).toMatchObject({
      messages: [{ role: 'system', content: 'You are a helpful assistant that answers questions clearly and concisely.' }, { role: 'user', content: 'What is Langfuse?' }],
      usage: { inputTokens: 31, outputTokens: 96 }, costUsd: 0.0010375,
    });
    // The trace's own output (JSON text) is the same answer.
    const exported = JSON.parse(readCorpus('vendor-traces/langfuse-export-pydantic-ai-2025-06-06.trace.json')) as { trace: { output: string } };
    expect(record(0)?.text).toBe(JSON.parse(exported.trace.output));
    expect(run).toMatchObject({ provider: 'openai', model: 'gpt-4o', output: record(0)?.text });
    const chain = parseChain(run.chain, stepRegistry);
    expect(chain.ok ? chain.chain.steps.map((s) => s.id) : chain.problems).toEqual(view.steps.map((s) => s.stepId));
  });
});

const observation = (over: Record<string, unknown> = {}) => ({
  id: 'g1', traceId: 't', type: 'GENERATION', name: 'chat', parentObservationId: null, startTime: '2025-01-01T00:00:00.000Z', endTime: '2025-01-01T00:00:01.000Z',
  level: 'DEFAULT', statusMessage: null, model: 'gpt-4o', modelParameters: {}, input: '[{"role":"user","content":"Hi"}]', output: '"Hello."', usageDetails: { input: 3, output: 2 }, ...over,
});
const exportOf = (observations: unknown[], trace: Record<string, unknown> = { id: 't', name: 'trace' }) => JSON.stringify({ trace, observations });

function refused(text: string): string {
  const result = importLangfuseExport(text, stepRegistry);
  if (result.ok) throw new Error('expected a refusal');
  return result.message;
}

describe('importLangfuseExport refuses hostile and malformed exports with a plain message', () => {
  it('a huge observations list, before mapping any of it', () => {
    expect(refused(exportOf(Array.from({ length: 10_001 }, (_, i) => observation({ id: `g${i}` }))))).toBe('the Langfuse export is malformed: observations must hold at most 10000 observations');
  });

  it('deep nesting, in the file and inside a JSON-text body', () => {
    expect(refused(`{"trace": {"id": "t"}, "observations": [${'['.repeat(50_000)}${']'.repeat(50_000)}]}`)).toMatch(/is nested deeper than 64 levels$/);
    // A body too deep to parse is kept as the text it is, not walked.
    const deepBody = `${'['.repeat(200)}"x"${']'.repeat(200)}`;
    const result = importLangfuseExport(exportOf([observation({ output: deepBody })]), stepRegistry);
    expect(result.ok && result.events.find((e) => e.type === 'step.attempt')).toMatchObject({ record: { text: deepBody } });
  });

  it('wrong types, naming the exact place', () => {
    expect(refused(exportOf([observation(), observation({ startTime: 12 })]))).toBe('the Langfuse export is malformed: observations[1].startTime must be a string');
    expect(refused(exportOf([observation({ startTime: 'yesterday' })]))).toBe('the Langfuse export is malformed: observations[0].startTime must be an ISO date-time');
    expect(refused(exportOf([observation({ id: undefined })]))).toBe('the Langfuse export is malformed: observations[0].id is missing');
    expect(refused(exportOf([observation({ usageDetails: 'lots' })]))).toMatch(/^the Langfuse export is malformed: observations\[0\]\.usageDetails must be/);
    expect(refused(JSON.stringify({ trace: 'x', observations: {} }))).toMatch(/^the Langfuse export is malformed: trace must be an object; observations must be an array/);
    expect(refused('{"trace": {"id": "t"}, "observations": [{"__proto__": {"polluted": true}}]}')).toBe('observations[0].__proto__: the key "__proto__" is not allowed');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('no observations, no generations, not JSON at all; never throws', () => {
    expect(refused(exportOf([]))).toBe('the Langfuse export holds no observations');
    expect(refused(exportOf([observation({ type: 'SPAN', name: 'outer' }), observation({ id: 'x', type: 'TOOL', name: 'lookup' })]))).toBe('no generations found: none of the 2 observation(s) ("outer", "lookup") is of type GENERATION');
    for (const text of ['', '{', '[]', 'null', '{"trace": null, "observations": null}', undefined as unknown as string]) {
      expect(() => importLangfuseExport(text, stepRegistry)).not.toThrow();
      expect(importLangfuseExport(text, stepRegistry).ok).toBe(false);
    }
  });
});

describe('importLangfuseExport on odd but valid exports', () => {
  it('an ERROR-level generation is a failed step with its status message', () => {
    const result = importLangfuseExport(exportOf([observation({ level: 'ERROR', statusMessage: 'rate limited', output: null })]), stepRegistry);
    if (!result.ok) throw new Error(result.message);
    expect(buildRunView(result.run, result.events, stepRegistry).steps[0]).toMatchObject({ status: 'failed', failure: { code: 'provider_error', message: 'rate limited' } });
    expect(result.warnings).toEqual([]);
  });

  it('an output it cannot read is a warning and no text, never an empty text', () => {
    const result = importLangfuseExport(exportOf([observation({ output: '{"weird": true}' })]), stepRegistry);
    if (!result.ok) throw new Error(result.message);
    expect(result.events.find((e) => e.type === 'step.attempt')).not.toHaveProperty('record.text');
    expect(result.warnings).toEqual(['no output text or tool call could be recovered from 1 generation(s): "chat"; their steps have no output (their output is empty or in a shape this import does not know)']);
  });

  it('reads bodies given as JSON values as well as JSON text, and counts given as strings', () => {
    const asValues = observation({
      input: [{ role: 'user', content: 'Hi' }],
      output: { choices: [{ finish_reason: 'length', message: { role: 'assistant', content: 'Hel' } }] },
      usageDetails: { input: '3', output: '2', cache_read_input_tokens: '1' },
    });
    const result = importLangfuseExport(exportOf([asValues]), stepRegistry);
    if (!result.ok) throw new Error(result.message);
    expect(result.events.find((e) => e.type === 'step.attempt')).toMatchObject({
      record: { messages: [{ role: 'user', content: 'Hi' }], text: 'Hel', finishReason: 'length', usage: { inputTokens: 3, outputTokens: 2, cachedInputTokens: 1 } },
    });
  });

  it('parent links that loop do not hang the wrapper search', () => {
    const a = observation({ id: 'a', parentObservationId: 'b' });
    const b = observation({ id: 'b', parentObservationId: 'a', startTime: '2025-01-01T00:00:02.000Z', endTime: '2025-01-01T00:00:03.000Z' });
    const result = importLangfuseExport(exportOf([a, b]), stepRegistry);
    expect(result.ok && buildRunView(result.run, result.events, stepRegistry).steps.map((s) => s.stepId)).toEqual(['chat', 'chat_2']);
  });
});
