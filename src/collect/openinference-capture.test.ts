import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenAIInstrumentation } from '@arizeai/openinference-instrumentation-openai';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { FinishedTrace } from './index.ts';
import { createMockModelServer } from '../testing/mock-server.ts';
import { startTestCollector, type TestCollector } from '../testing/collect-fixtures.ts';
import { otlpTraceExporter } from '../testing/otlp-exporters.ts';
import type { OpenAIModule } from '../testing/otel-capture.ts';
import { stepRegistry } from '../steps/index.ts';
import { buildRunView } from '../trace/replay.ts';
import { parseRunFile } from '../trace/run-file.ts';

/**
 * A capture from the real library: Arize's OpenInference instrumentation
 * (@arizeai/openinference-instrumentation-openai 4.2.7, applied through its documented
 * `manuallyInstrument`) around the official openai client (6.49, see src/testing/otel-capture.ts)
 * calling the mock model server: a chat, a streamed chat and a tool call. OpenTelemetry's own
 * OTLP/HTTP protobuf exporter sends the spans to `seamscope collect`, and what it writes is
 * checked: content, tokens, model, tool calls, and the span kind OpenInference records.
 */
const require = createRequire(import.meta.url);
let collector: TestCollector;
const traces: Extract<FinishedTrace, { ok: true }>[] = [];

beforeAll(async () => {
  const openai = require('openai-v6') as OpenAIModule;
  const mock = await createMockModelServer();
  collector = await startTestCollector();
  const provider = new TracerProvider({ spanProcessors: [new BatchSpanProcessor({ exporter: otlpTraceExporter({ url: collector.collector.url, encoding: 'protobuf' }) })] });
  const instrumentation = new OpenAIInstrumentation();
  instrumentation.setTracerProvider(provider);
  instrumentation.manuallyInstrument(openai.OpenAI as never);
  try {
    mock.enqueue(
      { content: 'Paris is the capital of France.', usage: { inputTokens: 21, outputTokens: 7 } },
      { content: 'Streamed answer.', usage: { inputTokens: 5, outputTokens: 3 } },
      { content: '', toolCalls: [{ id: 'call_weather_1', name: 'get_weather', arguments: { city: 'Paris' } }], usage: { inputTokens: 40, outputTokens: 12 } },
    );
    const client = new openai.OpenAI({ baseURL: `${mock.url}/v1`, apiKey: 'test-key', maxRetries: 0 });
    await client.chat.completions.create({ model: 'mock-model', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Capital of France?' }] });
    const stream = await client.chat.completions.create({ model: 'mock-model', messages: [{ role: 'user', content: 'Stream please' }], stream: true, stream_options: { include_usage: true } });
    for await (const chunk of stream) void chunk;
    await client.chat.completions.create({
      model: 'mock-model', messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [{ type: 'function', function: { name: 'get_weather', description: 'Current weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }],
    });
    await provider.forceFlush();
  } finally {
    instrumentation.disable();
    await provider.shutdown();
    await mock.close();
  }
  // Each call is a trace of its own (a root span each).
  for (let i = 0; i < 3; i++) {
    const finished = await collector.next();
    if (!finished.ok) throw new Error(finished.message);
    traces.push(finished);
  }
  traces.sort((a, b) => a.run.startedAt - b.run.startedAt);
}, 60_000);

afterAll(async () => {
  await collector?.stop();
});

describe('a capture by @arizeai/openinference-instrumentation-openai, sent as OTLP protobuf to seamscope collect', () => {
  it('writes one run per call, read as OpenInference, with the model and the span kind', () => {
    expect(traces.map((t) => [t.spans, t.run.model, t.run.provider])).toEqual([[1, 'mock-model', 'openai'], [1, 'mock-model', 'openai'], [1, 'mock-model', 'openai']]);
    for (const t of traces) expect(t.run.chain).toMatchObject({ meta: { importedFrom: ['OpenInference'] } });
    // openinference.span.kind LLM: each span is shown as a model call.
    expect(traces.map((t) => t.run.spans?.map((s) => [s.name, s.kind]))).toEqual(Array.from({ length: 3 }, () => [['OpenAI Chat Completions', 'model']]));
  });

  // The tool call's reply has no text (content null): its text is empty, as the importer writes it for every convention.
  it('imports the messages, answers, tool call and tokens it recorded', async () => {
    const files = await Promise.all(traces.map(async (t) => {
      const read = parseRunFile(await readFile(t.path, 'utf8'));
      if (!read.ok) throw new Error(read.message);
      return read.file;
    }));
    const records = files.map((f) => buildRunView(f.run, f.events, stepRegistry).steps[0]?.attempts[0]?.record);
    expect(records.map((r) => r?.messages)).toEqual([
      [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Capital of France?' }],
      [{ role: 'user', content: 'Stream please' }],
      [{ role: 'user', content: 'Weather in Paris?' }],
    ]);
    expect(records.map((r) => r?.text)).toEqual(['Paris is the capital of France.', 'Streamed answer.', '']);
    // Arguments as the JSON text the model sent, as every convention's tool calls are recorded.
    expect(records[2]?.toolCalls).toEqual([{ id: 'call_weather_1', name: 'get_weather', arguments: '{"city":"Paris"}' }]);
    expect(records.map((r) => r?.finishReason)).toEqual(['stop', 'stop', 'tool_calls']);
    // It records usage from a whole completion only: a stream's final usage chunk (include_usage) is not read,
    // so the streamed call has none. The cached and reasoning counts it writes (0 here) are kept.
    const usage = (inputTokens: number, outputTokens: number) => ({ inputTokens, outputTokens, cachedInputTokens: 0, reasoningTokens: 0 });
    expect(records.map((r) => r?.usage)).toEqual([usage(21, 7), undefined, usage(40, 12)]);
  });
});
