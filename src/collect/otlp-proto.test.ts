import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SpanKind, SpanStatusCode, trace as traceApi, context } from '@opentelemetry/api';
import { InMemoryLogRecordExporter, LoggerProvider, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { JsonLogsSerializer, JsonTraceSerializer, ProtobufLogsSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { deeplyNested } from '../testing/hostile-collect.ts';
import { descriptorFromProtoFiles, DESCRIPTOR_PATH } from './proto-files.ts';
import { decodeExportResponse, decodeLogsRequest, decodeStatus, decodeTraceRequest, encodeExportResponse, encodeStatus } from './otlp-proto.ts';

/**
 * The field numbers are checked against OpenTelemetry's own serializers: real spans and log
 * records, made by the SDK, encoded by @opentelemetry/otlp-transformer's protobuf serializer,
 * decoded by ours, and compared with what its JSON serializer writes for the same items.
 */
async function realSpans() {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  const tracer = provider.getTracer('seamscope-test', '1.2.3');
  const root = tracer.startSpan('invoke_agent planner', { kind: SpanKind.INTERNAL, attributes: { 'gen_ai.agent.name': 'planner' } });
  const ctx = traceApi.setSpan(context.active(), root);
  const child = tracer.startSpan('chat gpt-4.1-mini', {
    kind: SpanKind.CLIENT,
    attributes: {
      'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4.1-mini', 'gen_ai.usage.input_tokens': 9007199254740991,
      'gen_ai.request.temperature': 0.25, 'gen_ai.request.stream': false, 'gen_ai.response.finish_reasons': ['stop', 'length'],
      'gen_ai.output.messages': '[{"role":"assistant","parts":[{"type":"text","content":"Grüße, 世界 🌍"}]}]',
    },
  }, ctx);
  child.addEvent('gen_ai.choice', { index: 0, message: '{"content":"ok"}' });
  child.setStatus({ code: SpanStatusCode.ERROR, message: 'rate limited' });
  child.end();
  root.end();
  await provider.forceFlush();
  return { spans: exporter.getFinishedSpans(), ids: { trace: root.spanContext().traceId, root: root.spanContext().spanId } };
}

async function realLogs(spanContextOf: Awaited<ReturnType<typeof realSpans>>['spans'][number]) {
  const exporter = new InMemoryLogRecordExporter();
  const provider = new LoggerProvider({ processors: [new SimpleLogRecordProcessor({ exporter })] });
  const ctx = traceApi.setSpanContext(context.active(), spanContextOf.spanContext());
  const logger = provider.getLogger('@opentelemetry/instrumentation-openai', '0.22.0');
  logger.emit({ context: ctx, severityNumber: 9, attributes: { 'event.name': 'gen_ai.user.message', 'gen_ai.system': 'openai' }, body: { content: 'Capital of France?' } });
  logger.emit({ context: ctx, eventName: 'gen_ai.client.inference.operation.details', attributes: { 'gen_ai.input.messages': [{ role: 'user' }] } as never, body: { finish_reason: 'stop', index: 0, message: { content: 'Paris', tool_calls: [{ id: 'c1' }] } } });
  await provider.forceFlush();
  return exporter.getFinishedLogRecords();
}

describe('OTLP protobuf decoding (protobufjs with the OTLP protos)', () => {
  it('the committed descriptor is the one the .proto files make', () => {
    expect(JSON.parse(readFileSync(DESCRIPTOR_PATH, 'utf8'))).toEqual(JSON.parse(JSON.stringify(descriptorFromProtoFiles())));
  });

  it('decodes what the official protobuf serializer encodes into what the official JSON serializer writes', async () => {
    const { spans, ids } = await realSpans();
    const bytes = ProtobufTraceSerializer.serializeRequest(spans) as Uint8Array;
    const ours = decodeTraceRequest(bytes);
    const theirs = asProto3Json(JSON.parse(new TextDecoder().decode(JsonTraceSerializer.serializeRequest(spans))), new Set(['flags']));
    expect(ours).toEqual(theirs);
    // Spelled out, so a shared mistake cannot pass unseen.
    const decoded = (ours.resourceSpans as { scopeSpans: { scope: unknown; spans: Record<string, unknown>[] }[] }[])[0]?.scopeSpans[0];
    expect(decoded?.scope).toEqual({ name: 'seamscope-test', version: '1.2.3' });
    const child = decoded?.spans[0] as Record<string, unknown>;
    expect(child).toMatchObject({ traceId: ids.trace, parentSpanId: ids.root, name: 'chat gpt-4.1-mini', kind: 3, status: { code: 2, message: 'rate limited' } });
    expect(typeof child.startTimeUnixNano).toBe('string');
    const attrs = Object.fromEntries((child.attributes as { key: string; value: unknown }[]).map((a) => [a.key, a.value]));
    expect(attrs['gen_ai.usage.input_tokens']).toEqual({ intValue: '9007199254740991' });
    expect(attrs['gen_ai.request.temperature']).toEqual({ doubleValue: 0.25 });
    expect(attrs['gen_ai.response.finish_reasons']).toEqual({ arrayValue: { values: [{ stringValue: 'stop' }, { stringValue: 'length' }] } });
    expect(String((attrs['gen_ai.output.messages'] as { stringValue: string }).stringValue)).toContain('Grüße, 世界 🌍');
    expect(child.events).toEqual([expect.objectContaining({ name: 'gen_ai.choice' })]);
  });

  it('decodes log records, the event name in field 12 included, as the JSON serializer writes them', async () => {
    const { spans } = await realSpans();
    const logs = await realLogs(spans[0] as (typeof spans)[number]);
    const ours = decodeLogsRequest(ProtobufLogsSerializer.serializeRequest(logs) as Uint8Array);
    const theirs = asProto3Json(JSON.parse(new TextDecoder().decode(JsonLogsSerializer.serializeRequest(logs))));
    expect(ours).toEqual(theirs);
    const records = (ours.resourceLogs as { scopeLogs: { logRecords: Record<string, unknown>[] }[] }[])[0]?.scopeLogs[0]?.logRecords ?? [];
    expect(records.map((r) => [r.eventName, r.spanId])).toEqual([[undefined, spans[0]?.spanContext().spanId], ['gen_ai.client.inference.operation.details', spans[0]?.spanContext().spanId]]);
    expect(records[0]?.body).toEqual({ kvlistValue: { values: [{ key: 'content', value: { stringValue: 'Capital of France?' } }] } });
  });

  it('refuses invalid UTF-8, a length past the end and nesting past 100 messages', async () => {
    const { spans } = await realSpans();
    const good = ProtobufTraceSerializer.serializeRequest(spans) as Uint8Array;
    const name = Buffer.from('chat gpt-4.1-mini');
    const at = Buffer.from(good).indexOf(name);
    const badUtf8 = Buffer.from(good);
    badUtf8[at] = 0xc3;
    badUtf8[at + 1] = 0x28;
    expect(() => decodeTraceRequest(badUtf8)).toThrow(/utf-8/i);
    expect(() => decodeTraceRequest(good.subarray(0, good.length - 5))).toThrow();
    expect(() => decodeTraceRequest(deeplyNested(200))).toThrow(/max depth/);
    expect(decodeTraceRequest(deeplyNested(10))).toMatchObject({ resourceSpans: [{ resource: { attributes: [{ value: { arrayValue: { values: [{ arrayValue: {} }] } } }] } }] });
  });

  it('encodes responses the official serializer reads back, partial success included', () => {
    expect(ProtobufTraceSerializer.deserializeResponse(encodeExportResponse('traces', { rejected: 3, message: 'bad ids' }))).toEqual({ partialSuccess: { rejectedSpans: 3, errorMessage: 'bad ids' } });
    expect(ProtobufLogsSerializer.deserializeResponse(encodeExportResponse('logs', { rejected: 2, message: 'x' }))).toEqual({ partialSuccess: { rejectedLogRecords: 2, errorMessage: 'x' } });
    expect(decodeExportResponse('traces', encodeExportResponse('traces', null))).toBeNull();
    expect(decodeStatus(encodeStatus(3, 'bad payload'))).toEqual({ code: 3, message: 'bad payload' });
  });
});

/**
 * The JSON serializer's output in the proto3 JSON mapping our decoder writes (the importer reads
 * either): int64 as a decimal string, and fields at their default (0, empty list) left out, as
 * proto3 leaves them out; AnyValue members are a oneof and are kept even at 0. For spans, `skip`
 * names `flags` (Span field 16, OTLP 1.1): the 0.38 protos predate it and nothing reads it.
 */
const ONEOF = new Set(['stringValue', 'boolValue', 'intValue', 'doubleValue', 'bytesValue']);
function asProto3Json(value: unknown, skip: ReadonlySet<string> = new Set()): unknown {
  if (Array.isArray(value)) return value.map((item) => asProto3Json(item, skip));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (skip.has(key) || (!ONEOF.has(key) && (item === 0 || (Array.isArray(item) && item.length === 0)))) continue;
    out[key] = key === 'intValue' && typeof item === 'number' ? String(item) : asProto3Json(item, skip);
  }
  return out;
}
