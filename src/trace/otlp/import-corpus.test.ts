import { describe, expect, it } from 'vitest';
import { parseChain } from '../../chain/parse.ts';
import type { Chain } from '../../chain/schema.ts';
import { readCorpus } from '../../testing/corpus.ts';
import { buildRunView } from '../replay.ts';
import { importOtlpTrace } from './import.ts';
import { stepRegistry } from '../../steps/index.ts';

/** Real traces captured by other tools (see src/testing/corpus/README.md): import each one. */
function load(file: string) {
  const result = importOtlpTrace(readCorpus(`traces/otlp/${file}`), stepRegistry);
  if (!result.ok) throw new Error(result.message);
  const view = buildRunView(result.run, result.events, stepRegistry);
  const chain = result.run.chain as Chain;
  return { ...result, view, chain, attempt: (i: number) => view.steps[i]?.attempts[0]?.record };
}

describe('importOtlpTrace on real traces', () => {
  it('OpenLit 1.27: gen_ai.system, the gen_ai.content.prompt/completion events, max_tokens -1', () => {
    const { run, view, chain, attempt, warnings } = load('openlit-1.27-openai-chat.otlp.json');
    expect(warnings).toEqual([]);
    expect(view.steps.map((s) => [s.stepId, s.kind, s.status])).toEqual([['openai_chat_completions', 'model', 'succeeded']]);
    const record = attempt(0);
    expect(record?.messages).toEqual([{ role: 'user', content: 'What is LLM Observability?' }]);
    expect(record?.text).toMatch(/^LLM Observability stands for logs, metrics, and traces observability\. It refers to/);
    expect(record?.text).toHaveLength(567);
    expect(record?.text?.endsWith('often complex and distributed across multiple environments.')).toBe(true);
    expect(record).toMatchObject({
      usage: { inputTokens: 14, outputTokens: 96 }, finishReason: 'stop', rawFinishReason: 'stop', errors: [],
      // -1 means "not set" in OpenLit; 0 here means unknown. 1174.149 ms from the span's nanosecond times.
      params: { model: 'gpt-3.5-turbo', maxTokens: 0, temperature: 1, structured: false, stream: false }, latencyMs: 1174.149,
    });
    expect(view.steps[0]?.output).toBe(record?.text);
    expect(run).toMatchObject({ provider: 'openai', model: 'gpt-3.5-turbo', status: 'succeeded', inputs: {}, usage: { inputTokens: 14, outputTokens: 96 } });
    expect(run.startedAt).toBe(1738074845669.299);
    expect(chain.meta?.importedFrom).toEqual(['OpenLit content events', 'OpenTelemetry GenAI', 'OpenTelemetry GenAI (deprecated keys)']);
    expect(chain.steps[0]?.config).toMatchObject({ prompt: 'What is LLM Observability?', model: 'gpt-3.5-turbo', temperature: 1, maxTokens: 1024, outputSchema: null });
  });

  it('OpenLLMetry 0.33.9: indexed gen_ai.prompt.N / gen_ai.completion.N, prompt_tokens, llm.usage.*', () => {
    const { run, view, chain, attempt } = load('openllmetry-0.33.9-openai-chat.otlp.json');
    expect(view.steps.map((s) => s.stepId)).toEqual(['openai_chat']);
    const record = attempt(0);
    expect(record?.messages).toEqual([{ role: 'user', content: 'What is LLM Observability?' }]);
    expect(record?.text).toMatch(/^LLM Observability \(Logs, Metrics, and Traces Observability\) is a strategy/);
    expect(record?.text).toContain('\n\nLogs provide detailed records');
    expect(record).toMatchObject({ usage: { inputTokens: 14, outputTokens: 173 }, finishReason: 'stop', params: { model: 'gpt-3.5-turbo', stream: false }, latencyMs: 1444.194 });
    // `status: {}` is UNSET, not an error.
    expect(run).toMatchObject({ provider: 'OpenAI', model: 'gpt-3.5-turbo', status: 'succeeded' });
    expect(chain.meta?.importedFrom).toEqual(['OpenLLMetry (Traceloop)', 'OpenTelemetry GenAI', 'OpenTelemetry GenAI (deprecated keys)']);
  });

  it('Vercel AI SDK v6: doGenerate/doStream spans become steps, their wrappers are folded in, 8 trace ids become one run', () => {
    const { run, view, chain, attempt, warnings } = load('vercel-ai-sdk-v6-openai.otlp.json');
    expect(warnings).toEqual(['the file holds 8 traces; they were imported as one run, ordered by start time']);
    expect(view.steps.map((s) => [s.stepId, s.name])).toEqual([
      ['ai_generateText_doGenerate', 'test-generate-text'],
      ['ai_generateText_doGenerate_2', 'test-generate-text-messages'],
      ['ai_generateObject_doGenerate', 'test-generate-object'],
      ['ai_streamText_doStream', 'test-stream-text'],
    ]);
    expect(attempt(0)).toMatchObject({
      messages: [{ role: 'user', content: 'Write a haiku about programming.' }],
      text: 'Lines of code align,  \nLogic dances through the night—  \nDreams in data flow.', usage: { inputTokens: 14, outputTokens: 20 }, finishReason: 'stop',
    });
    expect(attempt(1)?.messages).toEqual([
      { role: 'system', content: 'You are a helpful assistant.' },
      { role: 'user', content: 'What is 2 + 2?' },
      { role: 'assistant', content: '2 + 2 equals 4.' },
      { role: 'user', content: 'And what is 3 + 3?' },
    ]);
    expect(attempt(1)).toMatchObject({ text: '3 + 3 equals 6.', usage: { inputTokens: 50, outputTokens: 9 } });
    // ai.response.object: structured; the schema comes from the ai.generateObject wrapper span.
    expect(attempt(2)).toMatchObject({ params: { structured: true }, usage: { inputTokens: 63, outputTokens: 156 } });
    expect(view.steps[2]?.output).toMatchObject({ name: 'Scrambled Eggs', ingredients: ['2 eggs', '2 tablespoons milk', 'Salt to taste', 'Pepper to taste', '1 tablespoon butter'] });
    expect((view.steps[2]?.output as { steps: string[] }).steps).toHaveLength(8);
    expect(chain.steps[2]?.config.outputSchema).toMatchObject({ type: 'object', required: ['name', 'ingredients', 'steps'] });
    expect(attempt(3)).toMatchObject({ params: { stream: true }, usage: { inputTokens: 15, outputTokens: 112 } });
    expect(attempt(3)?.text).toMatch(/^In code’s embrace, where types align,/);
    expect(run).toMatchObject({ provider: 'openai.responses', model: 'gpt-4o-mini', status: 'succeeded', usage: { inputTokens: 142, outputTokens: 297 } });
    expect(chain.meta?.importedFrom).toEqual(['OpenTelemetry GenAI', 'OpenTelemetry GenAI (deprecated keys)', 'Vercel AI SDK']);
    // Four independent calls: nothing one produced appears in another's input.
    expect(view.boundaries).toEqual([]);
  });

  it('pydantic-ai 0.2.15: the messages and the choice in its `events` attribute (GenAI event bodies as JSON)', () => {
    const { run, attempt, warnings, chain } = load('pydantic-ai-0.2.15-openai-chat.otlp.json');
    expect(attempt(0)?.messages).toEqual([
      { role: 'system', content: 'You are a helpful assistant that answers questions clearly and concisely.' },
      { role: 'user', content: 'What is Langfuse?' },
    ]);
    expect(attempt(0)?.text).toMatch(/^Langfuse is a tool designed for observability and monitoring of applications that utilize large language models \(LLMs\)\./);
    expect(attempt(0)).toMatchObject({ usage: { inputTokens: 31, outputTokens: 96 } });
    expect(warnings).toEqual([]);
    expect(run).toMatchObject({ provider: 'openai', model: 'gpt-4o' });
    expect(chain.meta?.importedFrom).toEqual(['OpenTelemetry GenAI', 'OpenTelemetry GenAI (deprecated keys)']);
  });

  it('OpenInference (openai_agents): flattened messages with a tool call and its result, cached and reasoning token counts', () => {
    const { attempt, view, warnings } = load('openinference-openai-agents-2025-09-30.otlp.json');
    expect(view.steps.map((s) => s.stepId)).toEqual(['response', 'response_2']);
    expect(attempt(0)).toMatchObject({
      text: '', toolCalls: [{ id: 'call_Kud0j0DxWSmLzv9W5m6qVqXn', name: 'get_weather', arguments: '{"city":"Tokyo"}' }],
      usage: { inputTokens: 55, outputTokens: 15, cachedInputTokens: 0, reasoningTokens: 0 },
    });
    expect(attempt(1)?.messages.at(-1)).toEqual({ role: 'user', content: '[tool result id=call_Kud0j0DxWSmLzv9W5m6qVqXn] The weather in Tokyo is sunny.' });
    expect(warnings[0]).toBe('1 span(s) that are not LLM calls made no step (they are in the span tree): "get_weather"');
  });

  it('OpenInference (google_adk): a Gemini function call with no id, and finish reasons', () => {
    const { attempt } = load('openinference-google-adk-2025-08-28.otlp.json');
    expect(attempt(0)).toMatchObject({ text: '', toolCalls: [{ id: '', name: 'say_hello', arguments: '{}' }], finishReason: 'stop', usage: { inputTokens: 28, outputTokens: 3 } });
    expect(attempt(1)).toMatchObject({ text: 'Hello Langfuse 👋!\n', finishReason: 'stop' });
  });

  it('the OTLP proto example has no LLM call: a clear refusal, not an empty run', () => {
    const result = importOtlpTrace(readCorpus('traces/otlp/otlp-proto-example-trace.json'), stepRegistry);
    expect(result).toEqual({ ok: false, message: expect.stringMatching(/^no LLM calls found: none of the 1 span\(s\) \("I'm a server span"\)/) });
  });

  it('every imported run has a chain that parses and a view with one model step per call', () => {
    for (const file of ['openlit-1.27-openai-chat.otlp.json', 'openllmetry-0.33.9-openai-chat.otlp.json', 'vercel-ai-sdk-v6-openai.otlp.json']) {
      const { run, events, view } = load(file);
      const parsed = parseChain(run.chain, stepRegistry);
      expect(parsed.ok ? parsed.chain.steps.map((s) => s.id) : parsed.problems).toEqual(view.steps.map((s) => s.stepId));
      expect(events[0]?.type).toBe('run.started');
      expect(events.at(-1)).toMatchObject({ type: 'run.finished', status: 'succeeded' });
      expect(view.steps.every((s) => s.kind === 'model' && s.attempts.length === 1)).toBe(true);
      // Deterministic: importing the same file twice gives the same run id (the app can spot a re-import).
      expect(importOtlpTrace(readCorpus(`traces/otlp/${file}`), stepRegistry)).toMatchObject({ run: { id: run.id } });
    }
  });
});
