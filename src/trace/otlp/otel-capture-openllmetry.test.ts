import { writeFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { OpenAIInstrumentation } from '@traceloop/instrumentation-openai';
import { corpusPath } from '../../testing/corpus.ts';
import { captureOtlp } from '../../testing/otel-capture.ts';
import { stepRegistry } from '../../steps/index.ts';
import { buildRunView } from '../replay.ts';
import { importOtlpTrace } from './import.ts';

/**
 * A second capture made here: OpenLLMetry's JS instrumentation (@traceloop/instrumentation-openai
 * 0.27.0, applied through its documented `manuallyInstrument`) around openai 6.49 calling the
 * mock model server, exported as OTLP/JSON (see src/testing/otel-capture.ts). Unlike
 * OpenTelemetry's own instrumentation it records the content on the spans, in the current GenAI
 * convention (`gen_ai.input.messages` / `gen_ai.output.messages`).
 */
let exported: string;

beforeAll(async () => {
  const requests = await captureOtlp({
    instrument(provider, openai) {
      const instrumentation = new OpenAIInstrumentation({ traceContent: true });
      instrumentation.setTracerProvider(provider);
      instrumentation.manuallyInstrument(openai.OpenAI);
      return () => instrumentation.disable();
    },
    replies: [
      { content: 'Paris is the capital of France.', usage: { inputTokens: 21, outputTokens: 7 } },
      { content: 'Paris ist die Hauptstadt Frankreichs.', usage: { inputTokens: 30, outputTokens: 9 } },
      { content: 'Streamed answer.' },
    ],
    async calls(client) {
      const first = await client.chat.completions.create({ model: 'mock-model', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Capital of France?' }] });
      // The second call reads the first one's answer: the import should see that seam.
      await client.chat.completions.create({ model: 'mock-model', messages: [{ role: 'user', content: `Translate to German: ${first.choices[0]?.message.content ?? ''}` }] });
      const stream = await client.chat.completions.create({ model: 'mock-model', messages: [{ role: 'user', content: 'Stream please' }], stream: true });
      for await (const chunk of stream) void chunk;
    },
  });
  expect(requests.map((r) => r.contentType)).toEqual(['application/json']);
  exported = requests[0]?.body ?? '';
  if (process.env.SEAMSCOPE_SAVE_CAPTURE === '1') writeFileSync(corpusPath('traces/otlp/openllmetry-js-0.27-openai.otlp.json'), exported);
});

describe('a capture by @traceloop/instrumentation-openai (OpenLLMetry JS), exported as OTLP/JSON', () => {
  it('imports with the messages, answers, finish reasons and usage it recorded', () => {
    const result = importOtlpTrace(exported, stepRegistry);
    if (!result.ok) throw new Error(result.message);
    const view = buildRunView(result.run, result.events, stepRegistry);
    const records = view.steps.map((s) => s.attempts[0]?.record);
    expect(records.map((r) => r?.messages)).toEqual([
      [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Capital of France?' }],
      [{ role: 'user', content: 'Translate to German: Paris is the capital of France.' }],
      [{ role: 'user', content: 'Stream please' }],
    ]);
    expect(records.map((r) => [r?.text, r?.finishReason])).toEqual([
      ['Paris is the capital of France.', 'stop'], ['Paris ist die Hauptstadt Frankreichs.', 'stop'], ['Streamed answer.', 'stop'],
    ]);
    // It records usage for the two plain calls; for the stream (no include_usage) there is none.
    expect(records.map((r) => r?.usage)).toEqual([{ inputTokens: 21, outputTokens: 7 }, { inputTokens: 30, outputTokens: 9 }, undefined]);
    expect(result.run.chain).toMatchObject({ meta: { importedFrom: ['OpenTelemetry GenAI'] } });
    expect(result.warnings).toEqual(['the file holds 3 traces; they were imported as one run, ordered by start time']);
  });

  it('shows the seam between the first answer and the second prompt', () => {
    const result = importOtlpTrace(exported, stepRegistry);
    if (!result.ok) throw new Error(result.message);
    const view = buildRunView(result.run, result.events, stepRegistry);
    expect(view.boundaries.map((b) => [b.producer, b.consumer, b.intermediate])).toEqual([['chat_mock_model', 'chat_mock_model_2', 'Paris is the capital of France.']]);
  });
});
