import { writeFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { metrics } from '@opentelemetry/api';
import { OpenAIInstrumentation } from '@opentelemetry/instrumentation-openai';
import { corpusPath } from '../../testing/corpus.ts';
import { captureOtlp } from '../../testing/otel-capture.ts';
import { stepRegistry } from '../../steps/index.ts';
import { buildRunView } from '../replay.ts';
import { importOtlpTrace } from './import.ts';

/**
 * A capture made here, by software nobody on the team wrote: OpenTelemetry's own OpenAI
 * instrumentation (@opentelemetry/instrumentation-openai 0.22.0) around openai 6.49 calling the
 * mock model server, exported as OTLP/JSON (see src/testing/otel-capture.ts); the body the
 * exporter posted is imported byte for byte.
 */
let exported: string;

beforeAll(async () => {
  const requests = await captureOtlp({
    instrument(provider, openai) {
      const instrumentation = new OpenAIInstrumentation({ captureMessageContent: true });
      instrumentation.setTracerProvider(provider);
      // 0.22.0 creates its metric instruments in the base constructor, and its own (uninitialised)
      // class fields then reset them, so a stream's end throws; setting a meter provider recreates them.
      instrumentation.setMeterProvider(metrics.getMeterProvider());
      const definitions = instrumentation.getModuleDefinitions();
      for (const d of definitions) d.patch?.(openai, openai.VERSION);
      return () => {
        for (const d of definitions) d.unpatch?.(openai, openai.VERSION);
        instrumentation.disable();
      };
    },
    replies: [
      { content: 'Paris is the capital of France.', usage: { inputTokens: 21, outputTokens: 7 } },
      { content: 'The appeal window is', finishReason: 'length', usage: { inputTokens: 30, outputTokens: 5 } },
      { content: 'Streamed answer.', usage: { inputTokens: 12, outputTokens: 3 } },
    ],
    async calls(client) {
      await client.chat.completions.create({ model: 'mock-model', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Capital of France?' }], temperature: 0 });
      await client.chat.completions.create({ model: 'mock-model', messages: [{ role: 'user', content: 'How long is the appeal window?' }], max_tokens: 5 });
      const stream = await client.chat.completions.create({ model: 'mock-model', messages: [{ role: 'user', content: 'Stream please' }], stream: true, stream_options: { include_usage: true } });
      for await (const chunk of stream) void chunk;
    },
  });
  expect(requests.map((r) => r.contentType)).toEqual(['application/json']);
  exported = requests[0]?.body ?? '';
  // How the corpus copy traces/otlp/otel-instrumentation-openai-0.22.otlp.json was made (a run with this set).
  if (process.env.SEAMSCOPE_SAVE_CAPTURE === '1') writeFileSync(corpusPath('traces/otlp/otel-instrumentation-openai-0.22.otlp.json'), exported);
});

describe('a capture by @opentelemetry/instrumentation-openai, exported as OTLP/JSON', () => {
  it('is what the exporter wrote: three CLIENT spans named "chat mock-model" with GenAI attributes', () => {
    const data = JSON.parse(exported) as { resourceSpans: { scopeSpans: { scope: { name: string }; spans: { name: string; kind: number }[] }[] }[] };
    const spans = data.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans.map((span) => ({ scope: s.scope.name, name: span.name, kind: span.kind }))));
    expect(spans).toEqual(Array(3).fill({ scope: '@opentelemetry/instrumentation-openai', name: 'chat mock-model', kind: 3 }));
  });

  it('imports as one model step per call with model, usage and finish reasons', () => {
    const result = importOtlpTrace(exported, stepRegistry);
    if (!result.ok) throw new Error(result.message);
    const view = buildRunView(result.run, result.events, stepRegistry);
    expect(view.steps.map((s) => [s.stepId, s.kind, s.status])).toEqual([
      ['chat_mock_model', 'model', 'succeeded'], ['chat_mock_model_2', 'model', 'succeeded'], ['chat_mock_model_3', 'model', 'succeeded'],
    ]);
    const records = view.steps.map((s) => s.attempts[0]?.record);
    expect(records.map((r) => [r?.finishReason, r?.usage])).toEqual([
      ['stop', { inputTokens: 21, outputTokens: 7 }], ['length', { inputTokens: 30, outputTokens: 5 }], ['stop', { inputTokens: 12, outputTokens: 3 }],
    ]);
    expect(records.map((r) => r?.params)).toEqual([
      { model: 'mock-model', maxTokens: 0, temperature: 0, structured: false, stream: false },
      { model: 'mock-model', maxTokens: 5, structured: false, stream: false },
      { model: 'mock-model', maxTokens: 0, structured: false, stream: false },
    ]);
    expect(result.run).toMatchObject({ provider: 'openai', model: 'mock-model', status: 'succeeded', usage: { inputTokens: 63, outputTokens: 15 } });
  });

  it('carries no message content (this instrumentation sends it as log events): the import says so and stores no empty text', () => {
    const result = importOtlpTrace(exported, stepRegistry);
    if (!result.ok) throw new Error(result.message);
    const records = buildRunView(result.run, result.events, stepRegistry).steps.map((s) => s.attempts[0]?.record);
    expect(records.map((r) => [r?.messages, r?.text, r?.output])).toEqual(Array(3).fill([[], undefined, undefined]));
    expect(result.warnings).toEqual([
      expect.stringMatching(/^no output text or tool call could be recovered from 3 LLM span\(s\): "chat mock-model"; their steps have no output \(.*log events/),
      // No parent span around the calls: each is a trace of its own.
      'the file holds 3 traces; they were imported as one run, ordered by start time',
    ]);
  });
});
