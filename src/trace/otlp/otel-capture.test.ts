import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metrics } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OpenAIInstrumentation } from '@opentelemetry/instrumentation-openai';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type OpenAIClient from 'openai-v6';
import { corpusPath } from '../../testing/corpus.ts';
import { createMockModelServer, type MockModelServer } from '../../testing/mock-server.ts';
import { startTestCollector, type TestCollector } from '../../testing/otlp-collector.ts';
import { stepRegistry } from '../../steps/index.ts';
import { buildRunView } from '../replay.ts';
import { importOtlpTrace } from './import.ts';

/**
 * A capture made here, by software nobody on the team wrote: OpenTelemetry's own OpenAI
 * instrumentation (@opentelemetry/instrumentation-openai 0.22.0, SDK 3.1, the OTLP/JSON HTTP
 * exporter 0.301.0) around the official `openai` client, calling the mock model server. The
 * exporter posts to a collector on 127.0.0.1 and the body it posted is imported byte for byte.
 *
 * The instrumentation supports `openai` >=4.19 <7, so the client here is openai 6.49 (the
 * `openai-v6` alias; the project's `openai` devDependency is 7.x). An aliased package is not
 * found by require hooks, which match the name `openai`, so the instrumentation's own patch
 * function is applied to the module it is given: its code runs unchanged.
 */
const require = createRequire(import.meta.url);
const openaiModule = require('openai-v6') as { OpenAI: typeof OpenAIClient; VERSION: string };

let mock: MockModelServer;
let collector: TestCollector;
let exported: string;

beforeAll(async () => {
  mock = await createMockModelServer();
  collector = await startTestCollector();
  const provider = new TracerProvider({ spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: collector.url }) })] });
  const instrumentation = new OpenAIInstrumentation({ captureMessageContent: true });
  instrumentation.setTracerProvider(provider);
  // 0.22.0 creates its metric instruments in the base constructor, and its own (uninitialised)
  // class fields then reset them, so a stream's end throws; setting a meter provider recreates them.
  instrumentation.setMeterProvider(metrics.getMeterProvider());
  const definitions = instrumentation.getModuleDefinitions();
  for (const d of definitions) d.patch?.(openaiModule, openaiModule.VERSION);
  try {
    const client = new openaiModule.OpenAI({ baseURL: `${mock.url}/v1`, apiKey: 'test-key', maxRetries: 0 });
    mock.enqueue(
      { content: 'Paris is the capital of France.', usage: { inputTokens: 21, outputTokens: 7 } },
      { content: 'The appeal window is', finishReason: 'length', usage: { inputTokens: 30, outputTokens: 5 } },
      { content: 'Streamed answer.', usage: { inputTokens: 12, outputTokens: 3 } },
    );
    await client.chat.completions.create({ model: 'mock-model', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Capital of France?' }], temperature: 0 });
    await client.chat.completions.create({ model: 'mock-model', messages: [{ role: 'user', content: 'How long is the appeal window?' }], max_tokens: 5 });
    const stream = await client.chat.completions.create({ model: 'mock-model', messages: [{ role: 'user', content: 'Stream please' }], stream: true, stream_options: { include_usage: true } });
    for await (const chunk of stream) void chunk;
    await provider.forceFlush();
  } finally {
    for (const d of definitions) d.unpatch?.(openaiModule, openaiModule.VERSION);
    instrumentation.disable();
    await provider.shutdown();
  }
  expect(collector.requests.map((r) => r.contentType)).toEqual(['application/json']);
  exported = collector.requests[0]?.body ?? '';
  // How the corpus copy traces/otlp/otel-instrumentation-openai-0.22.otlp.json was made (a run with this set).
  if (process.env.SEAMSCOPE_SAVE_CAPTURE === '1') writeFileSync(corpusPath('traces/otlp/otel-instrumentation-openai-0.22.otlp.json'), exported);
});

afterAll(async () => {
  await Promise.all([mock?.close(), collector?.close()]);
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
