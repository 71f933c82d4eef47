import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import descriptor from './proto/otlp-descriptor.json' with { type: 'json' };
import { readTraceRequest } from './payload.ts';
import { DEFAULT_LIMITS } from './server.ts';

/**
 * A protobuf span is checked without the span schema (its fields already have their proto
 * types), so what the proto allows and the trace reader refuses is checked here: ids of the
 * wrong length, an absent name or time, an enum value past the known ones.
 */
const request = protobuf.Root.fromJSON(descriptor as protobuf.INamespace).lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest');
const id = (hex: string) => Buffer.from(hex, 'hex').toString('base64');
const good = { traceId: id('ab'.repeat(16)), spanId: id('cd'.repeat(8)), name: 'chat', startTimeUnixNano: '1', endTimeUnixNano: '2', kind: 3 };

function encode(spans: Record<string, unknown>[]): Uint8Array {
  return request.encode(request.fromObject({ resourceSpans: [{ scopeSpans: [{ spans }] }] })).finish();
}

describe('readTraceRequest on protobuf', () => {
  it('keeps a good span and rejects, each with its reason, what the trace reader would refuse', () => {
    const bad = [
      { ...good, spanId: id('cd'.repeat(5)) },
      { ...good, traceId: id('00'.repeat(16)) },
      { ...good, parentSpanId: id('ef'.repeat(3)) },
      { ...good, name: '' },
      { ...good, endTimeUnixNano: '0' },
      { ...good, kind: 9 },
      { ...good, status: { code: 7 } },
    ];
    const read = readTraceRequest(encode([good, ...bad]), 'protobuf', DEFAULT_LIMITS);
    if (!read.ok) throw new Error(read.message);
    expect(read.items.map((s) => [s.traceId, s.spanId, s.isRoot, s.span.name, s.span.kind])).toEqual([['ab'.repeat(16), 'cd'.repeat(8), true, 'chat', 3]]);
    expect(read.rejected).toBe(bad.length);
    expect(read.reasons).toEqual([
      'resourceSpans[0].scopeSpans[0].spans[1]: spanId must be 8 bytes',
      'resourceSpans[0].scopeSpans[0].spans[2]: its traceId is all zeros',
      'resourceSpans[0].scopeSpans[0].spans[3]: parentSpanId must be empty or 8 bytes',
    ]);
    const each = bad.map((span) => readTraceRequest(encode([span]), 'protobuf', DEFAULT_LIMITS));
    expect(each.map((r) => (r.ok ? r.reasons[0]?.replace(/^.*?: /, '') : r.message))).toEqual([
      'spanId must be 8 bytes', 'its traceId is all zeros', 'parentSpanId must be empty or 8 bytes', 'name is missing',
      'endTimeUnixNano is missing', 'kind must be an integer 0-5', 'status.code must be 0, 1 or 2',
    ]);
  });

  it('rejects the spans under a JSON resource the reader would refuse, and keeps the others', () => {
    const span = { traceId: 'ab'.repeat(16), spanId: 'cd'.repeat(8), name: 'chat', startTimeUnixNano: '1', endTimeUnixNano: '2' };
    const body = JSON.stringify({ resourceSpans: [{ resource: { attributes: 'service.name=x' }, scopeSpans: [{ spans: [span] }] }, { scopeSpans: [{ scope: { name: 'ok' }, spans: [span] }] }] });
    const read = readTraceRequest(new TextEncoder().encode(body), 'json', DEFAULT_LIMITS);
    if (!read.ok) throw new Error(read.message);
    expect([read.items.length, read.rejected, read.reasons]).toEqual([1, 1, ['resourceSpans[0].resource is not valid (its attributes must be a list of key-value pairs)']]);
  });
});
