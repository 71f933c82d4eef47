import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusPath, readCorpus } from '../../testing/corpus.ts';
import { stepRegistry } from '../../steps/index.ts';
import { parseChain } from '../../chain/parse.ts';
import { buildRunView } from '../replay.ts';
import { importTraceText, type TraceFormat } from '../../formats/index.ts';

/**
 * Every file in the copied trace corpus (src/testing/corpus/traces/** and vendor-traces/),
 * through the one entry the CLI and the app use. Each file must have a row here: a new file
 * without one fails the test, so nothing in the corpus is silently untested. A row gives the
 * format detected and, per step, the start of its text, its finish reason and its tool calls;
 * or the refusal. Files that are not traces (schemas, digests, attribute maps) must be refused.
 */
type Step = [text: string | null, finish: string | null, tools: string[]];
type Row = { format: TraceFormat; steps: Step[] } | { refused: RegExp; format: TraceFormat | null };

const NOT_A_TRACE = { refused: /^this is not a trace Seamscope reads/, format: null };

const expected: Record<string, Row> = {
  'traces/otlp/openlit-1.27-openai-chat.otlp.json': { format: 'otlp-json', steps: [['LLM Observability stands for logs', 'stop', []]] },
  'traces/otlp/openllmetry-0.33.9-openai-chat.otlp.json': { format: 'otlp-json', steps: [['LLM Observability (Logs, Metrics', 'stop', []]] },
  // Our own capture (otel-capture.test.ts): this instrumentation puts no content on spans.
  'traces/otlp/otel-instrumentation-openai-0.22.otlp.json': { format: 'otlp-json', steps: [[null, 'stop', []], [null, 'length', []], [null, 'stop', []]] },
  // Our own capture (otel-capture-openllmetry.test.ts): content on the spans, current GenAI keys.
  'traces/otlp/openllmetry-js-0.27-openai.otlp.json': { format: 'otlp-json', steps: [['Paris is the capital of France.', 'stop', []], ['Paris ist die Hauptstadt Frankreichs.', 'stop', []], ['Streamed answer.', 'stop', []]] },
  // Our own capture (engine/rerun-span-template.test.ts): OpenInference JS, the first call under a recorded prompt template.
  'traces/otlp/openinference-openai-js-prompt-template.otlp.json': {
    format: 'otlp-json',
    steps: [['The customer is waiting for a refund', 'stop', []], ['We are sorry: your refund for order 1182', 'stop', []], ['Our opening hours are 9 to 5.', 'stop', []]],
  },
  // Derived from Langfuse exports: the spans' own attributes, which Langfuse keeps in each observation's metadata.
  'traces/otlp/pydantic-ai-0.2.15-openai-chat.otlp.json': { format: 'otlp-json', steps: [['Langfuse is a tool designed for observability', null, []]] },
  'traces/otlp/openinference-openai-agents-2025-09-30.otlp.json': { format: 'otlp-json', steps: [['', null, ['get_weather']], ['The weather in Tokyo is currently sunny.', null, []]] },
  'traces/otlp/openinference-google-adk-2025-08-28.otlp.json': { format: 'otlp-json', steps: [['', 'stop', ['say_hello']], ['Hello Langfuse 👋!', 'stop', []]] },
  'traces/otlp/otlp-proto-example-trace.json': { refused: /^no LLM calls found: none of the 1 span\(s\)/, format: 'otlp-json' },
  'traces/otlp/otlp-traces.schema.json': NOT_A_TRACE,
  'traces/otlp/vercel-ai-sdk-v6-openai.otlp.json': {
    format: 'otlp-json',
    steps: [['Lines of code align,', 'stop', []], ['3 + 3 equals 6.', 'stop', []], ['{"name":"Scrambled Eggs"', 'stop', []], ['In code’s embrace, where types', 'stop', []]],
  },
  'traces/otel-genai/gen-ai-input-messages.schema.json': NOT_A_TRACE,
  'traces/otel-genai/gen-ai-output-messages.schema.json': NOT_A_TRACE,
  'traces/otel-genai/gen-ai-system-instructions.schema.json': NOT_A_TRACE,
  'traces/otel-genai/genai-semconv-digest.json': NOT_A_TRACE,
  // Attribute maps, not files a tool exports: conventions.test.ts maps each one.
  'traces/openinference/openinference_client_span_input_output_only.attributes.json': NOT_A_TRACE,
  'traces/openinference/openinference_client_span_tool_calls.attributes.json': NOT_A_TRACE,
  'traces/openinference/otel_genai_client_span_tool_calls.attributes.json': NOT_A_TRACE,
  'traces/openinference/otel_genai_deprecated_client_span_tool_calls.attributes.json': NOT_A_TRACE,
  'traces/openinference/otel_genai_tool_execution_span.attributes.json': NOT_A_TRACE,
  'vendor-traces/langfuse-export-claude-agent-2025-12-22.trace.json': {
    format: 'langfuse-export',
    steps: [["I'll check the weather in both Berlin", null, []], ['', null, ['mcp__weather__get_weather']], ['', null, ['mcp__weather__get_weather']], ["Great! Here's the current weather", null, []]],
  },
  'vendor-traces/langfuse-export-google-adk-2025-08-28.trace.json': { format: 'langfuse-export', steps: [['', 'stop', ['say_hello']], ['Hello Langfuse 👋!', 'stop', []]] },
  'vendor-traces/langfuse-export-openai-agents-2025-09-30.trace.json': { format: 'langfuse-export', steps: [['', null, ['get_weather']], ['The weather in Tokyo is currently sunny.', null, []]] },
  'vendor-traces/langfuse-export-pydantic-ai-2025-06-06.trace.json': { format: 'langfuse-export', steps: [['Langfuse is a tool designed for observability', null, []]] },
  'vendor-traces/langfuse-export-vercel-aisdk-2025-11-17.trace.json': { format: 'langfuse-export', steps: [['', 'tool_calls', ['getWeather']]] },
};

const files = ['traces/otlp', 'traces/otel-genai', 'traces/openinference', 'vendor-traces']
  .flatMap((dir) => readdirSync(corpusPath(dir)).map((name) => `${dir}/${name}`)).sort();

describe('every trace corpus file, through importTraceText', () => {
  it('has an expectation row (a new corpus file must be added here)', () => {
    expect(files).toEqual(Object.keys(expected).sort());
  });

  it.each(files)('%s', (file) => {
    const row = expected[file];
    if (!row) throw new Error(`no expectation row for ${file}`);
    const result = importTraceText(readCorpus(file), stepRegistry);
    expect(result.format).toBe(row.format);
    if ('refused' in row) {
      expect(result).toMatchObject({ ok: false, message: expect.stringMatching(row.refused) });
      return;
    }
    if (!result.ok) throw new Error(result.message);
    const view = buildRunView(result.run, result.events, stepRegistry);
    const steps = view.steps.map((s): Step => {
      const record = s.attempts[0]?.record;
      return [record?.text ?? null, record?.finishReason ?? null, (record?.toolCalls ?? []).map((t) => t.name)];
    });
    expect(steps.map(([, finish, tools]) => [finish, tools])).toEqual(row.steps.map(([, finish, tools]) => [finish, tools]));
    steps.forEach(([text], i) => {
      const want = row.steps[i]?.[0] ?? null;
      if (want === null || want === '') expect(text).toBe(want);
      else expect(text?.startsWith(want)).toBe(true);
    });
    expect(view.steps.every((s) => s.kind === 'model' && s.status === 'succeeded' && s.attempts.length === 1)).toBe(true);
    expect(result.events.at(-1)).toMatchObject({ type: 'run.finished', status: 'succeeded' });
    // The app stores the chain beside the run: it must parse, with one step per replayed step.
    const chain = parseChain(result.run.chain, stepRegistry);
    expect(chain.ok ? chain.chain.steps.map((s) => s.id) : chain.problems).toEqual(view.steps.map((s) => s.stepId));
  });
});
