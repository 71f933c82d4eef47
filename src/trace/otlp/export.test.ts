import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { routedChain } from '../../testing/chain-fixtures.ts';
import { readCorpus } from '../../testing/corpus.ts';
import type { TraceEvent } from '../events.ts';
import { exportRunToOtlp } from './export.ts';
import { attributeRecord, type OtlpSpan, type OtlpTraceData } from './otlp-json.ts';
import { engineRun } from '../../testing/otlp-runs.ts';

const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addFormat('binary', true);
const schema = (path: string) => ajv.compile(JSON.parse(readCorpus(`traces/${path}`)) as object);
const validate = {
  otlp: schema('otlp/otlp-traces.schema.json'),
  input: schema('otel-genai/gen-ai-input-messages.schema.json'),
  output: schema('otel-genai/gen-ai-output-messages.schema.json'),
  system: schema('otel-genai/gen-ai-system-instructions.schema.json'),
};
const digest = JSON.parse(readCorpus('traces/otel-genai/genai-semconv-digest.json')) as { attributes: { key: string; values?: string[] }[] };

const spansOf = (data: OtlpTraceData): OtlpSpan[] => data.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
const attrs = (span: OtlpSpan | undefined) => attributeRecord(span?.attributes);
const byName = (data: OtlpTraceData, name: string) => spansOf(data).filter((s) => s.name === name);

// First reply breaks the schema, so `extract` is retried with feedback: two attempts, one failed.
const retried = () => engineRun([{ facts: 'not an array' }, { facts: ['appeals within 180 days'] }, { answer: 'Within 180 days.' }]);

describe('exportRunToOtlp', () => {
  it('exports a real engine run as schema-valid OTLP/JSON: a span per run, per step and per attempt', async () => {
    const { meta, events } = await retried();
    const data = exportRunToOtlp(meta, events);
    expect(validate.otlp(data), JSON.stringify(validate.otlp.errors)).toBe(true);
    const spans = spansOf(data);
    expect(spans.map((s) => s.name)).toEqual(['invoke_workflow Two step', 'step extract', 'chat test-model', 'chat test-model', 'step answer', 'chat test-model', 'step final']);
    const [root, extract, try1, try2, answer, answerCall, final] = spans;
    expect(new Set(spans.map((s) => s.traceId))).toEqual(new Set([root?.traceId]));
    expect(root?.traceId).toMatch(/^[0-9a-f]{32}$/);
    for (const s of spans) expect(s.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(new Set(spans.map((s) => s.spanId)).size).toBe(spans.length);
    expect([extract, answer, final].map((s) => s?.parentSpanId)).toEqual([root?.spanId, root?.spanId, root?.spanId]);
    expect([try1, try2].map((s) => s?.parentSpanId)).toEqual([extract?.spanId, extract?.spanId]);
    expect(answerCall?.parentSpanId).toBe(answer?.spanId);
    expect([root?.kind, extract?.kind, try1?.kind]).toEqual([1, 1, 3]);
    // Times are the events' milliseconds as decimal nanosecond strings.
    const started = events.find((e) => e.type === 'run.started')?.at as number;
    expect(root?.startTimeUnixNano).toBe(`${started}000000`);
    expect(attrs(root)).toMatchObject({ 'gen_ai.operation.name': 'invoke_workflow', 'gen_ai.workflow.name': 'Two step', 'seamscope.run.status': 'succeeded' });
    expect(root?.status).toEqual({ code: 1 });
    expect(attrs(extract)).toMatchObject({ 'seamscope.step.kind': 'model', 'seamscope.step.status': 'succeeded' });
    expect(attrs(final)).toMatchObject({ 'seamscope.step.kind': 'output', 'seamscope.step.output': '"Within 180 days."' });
  });

  it('puts the exact messages and outcome of each attempt in GenAI keys valid against the official schemas', async () => {
    const { meta, events } = await retried();
    const attempts = events.filter((e): e is Extract<TraceEvent, { type: 'step.attempt' }> => e.type === 'step.attempt');
    const [try1, try2] = byName(exportRunToOtlp(meta, events), 'chat test-model');
    const a1 = attrs(try1);
    const a2 = attrs(try2);
    expect(a1).toMatchObject({
      'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'scripted', 'gen_ai.request.model': 'test-model', 'gen_ai.request.max_tokens': 1024,
      'gen_ai.request.temperature': 0, 'gen_ai.output.type': 'json', 'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.usage.input_tokens': 10, 'gen_ai.usage.output_tokens': 5, 'error.type': 'schema_violation',
      'seamscope.attempt': 1, 'seamscope.failure': 'schema_violation', 'seamscope.config_hash': attempts[0]?.record.configHash,
    });
    expect(a1['seamscope.validation_errors']).toEqual(attempts[0]?.record.errors);
    expect(a1['seamscope.feedback']).toBe(attempts[0]?.record.feedback);
    expect(try1?.status?.code).toBe(2);
    expect(try1?.status?.message).toContain('schema_violation: /facts');
    expect(try1?.events?.map((e) => e.name)).toEqual(['seamscope.retry_with_feedback']);
    expect(try2?.status).toEqual({ code: 1 });
    // int64 as decimal strings, temperature as a double even when it is 0.
    const raw = (span: OtlpSpan | undefined, key: string) => span?.attributes?.find((kv) => kv.key === key)?.value;
    expect(raw(try1, 'gen_ai.usage.input_tokens')).toEqual({ intValue: '10' });
    expect(raw(try1, 'gen_ai.request.temperature')).toEqual({ doubleValue: 0 });

    const [answerCall] = byName(exportRunToOtlp(meta, events), 'chat test-model').slice(2);
    expect(attrs(answerCall)['gen_ai.system_instructions']).toBeDefined();
    for (const [span, record] of [[try1, attempts[0]?.record], [try2, attempts[1]?.record], [answerCall, attempts[2]?.record]] as const) {
      const a = attrs(span);
      const messages = record?.messages ?? [];
      // The untrusted-input framing is a system message; only `answer` reads untrusted input.
      const hasSystem = messages[0]?.role === 'system';
      expect(a['gen_ai.system_instructions'] !== undefined).toBe(hasSystem);
      const input = JSON.parse(a['gen_ai.input.messages'] as string) as { role: string; parts: { content: string }[] }[];
      const output = JSON.parse(a['gen_ai.output.messages'] as string) as unknown;
      expect(validate.input(input), JSON.stringify(validate.input.errors)).toBe(true);
      expect(validate.output(output), JSON.stringify(validate.output.errors)).toBe(true);
      if (hasSystem) {
        const system = JSON.parse(a['gen_ai.system_instructions'] as string) as unknown;
        expect(validate.system(system), JSON.stringify(validate.system.errors)).toBe(true);
        expect(system).toEqual([{ type: 'text', content: messages[0]?.content }]);
      }
      expect(input.map((m) => ({ role: m.role, content: m.parts[0]?.content }))).toEqual(messages.slice(hasSystem ? 1 : 0));
      expect(output).toEqual([{ role: 'assistant', parts: [{ type: 'text', content: record?.text }], finish_reason: 'stop' }]);
    }
    // The schemas do bite: an OpenAI-style message (content, no parts) is not GenAI-shaped.
    expect(validate.input([{ role: 'user', content: 'x' }])).toBe(false);
    // The retry carries the failed output and the feedback: 2 more messages than the first try.
    expect(JSON.parse(a2['gen_ai.input.messages'] as string)).toHaveLength(JSON.parse(a1['gen_ai.input.messages'] as string).length + 2);
  });

  it('uses only gen_ai keys and operation names from the GenAI conventions', async () => {
    const { meta, events } = await retried();
    const known = new Set(digest.attributes.map((a) => a.key));
    const operations = digest.attributes.find((a) => a.key === 'gen_ai.operation.name')?.values ?? [];
    const keys = spansOf(exportRunToOtlp(meta, events)).flatMap((s) => (s.attributes ?? []).map((kv) => kv.key));
    const genAi = [...new Set(keys.filter((k) => k.startsWith('gen_ai.')))];
    expect(genAi.filter((k) => !known.has(k))).toEqual([]);
    expect(genAi).toContain('gen_ai.workflow.name');
    expect(operations).toEqual(expect.arrayContaining(['chat', 'invoke_workflow']));
  });

  it('is deterministic: the same run exports to the same bytes', async () => {
    const { meta, events } = await retried();
    expect(JSON.stringify(exportRunToOtlp(meta, events))).toBe(JSON.stringify(exportRunToOtlp(structuredClone(meta), structuredClone(events))));
    const other = exportRunToOtlp({ ...meta, id: 'another-run' }, events);
    expect(spansOf(other)[0]?.traceId).not.toBe(spansOf(exportRunToOtlp(meta, events))[0]?.traceId);
  });

  it('marks a failed run and its failed step as errors with the reason', async () => {
    const { meta, events } = await engineRun(['not json {', '{"facts": [']);
    const data = exportRunToOtlp(meta, events);
    expect(validate.otlp(data)).toBe(true);
    const [root] = spansOf(data);
    expect(root?.status?.code).toBe(2);
    expect(root?.status?.message).toMatch(/^failed: .*invalid_json/);
    expect(attrs(root)['error.type']).toBe('failed');
    const [step] = byName(data, 'step extract');
    expect(step?.status).toMatchObject({ code: 2 });
    expect(attrs(step)['seamscope.failure.code']).toBe('invalid_json');
    expect(byName(data, 'step answer')).toEqual([]);
  });

  it('records routes as span events on the router step', async () => {
    const { meta, events } = await engineRun([{ category: 'billing' }], routedChain(), { ticket: 'I was charged twice' });
    const data = exportRunToOtlp(meta, events);
    expect(validate.otlp(data)).toBe(true);
    const [route] = byName(data, 'step route');
    expect(route?.events?.map((e) => [e.name, attributeRecord(e.attributes)])).toEqual([
      ['seamscope.route', { 'seamscope.route.label': '"billing"', 'seamscope.route.chosen': ['billing_reply'] }],
    ]);
    expect(attrs(byName(data, 'step tech_reply')[0])['seamscope.step.status']).toBe('skipped');
  });

  it('never exports request or response bodies, so no credential can leak', async () => {
    const { meta, events } = await retried();
    // Keys never reach the trace; even if a body carried one, the export does not copy bodies.
    const tainted = events.map((e) => (e.type === 'step.attempt'
      ? { ...e, record: { ...e.record, requestBody: { headers: { authorization: 'Bearer sk-test-123' } }, rawResponse: { echo: 'Bearer sk-test-123' } } }
      : e));
    const text = JSON.stringify(exportRunToOtlp(meta, tainted));
    expect(text).not.toContain('Bearer ');
    expect(text).not.toContain('sk-test-123');
  });
});
