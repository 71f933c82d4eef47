import { gzipSync } from 'node:zlib';
import { SpanKind } from '@opentelemetry/api';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { DEFAULT_LIMITS } from '../collect/index.ts';
import type { TestCollector } from './collect-fixtures.ts';

/**
 * Hostile OTLP/HTTP requests for `seamscope collect` (issue #32, item 5): protobuf with a huge
 * value, a length past the end, nesting past protobufjs's limit and past the trace reader's,
 * invalid UTF-8 in protobuf and in JSON, a gzip bomb, a body past the limit with no
 * Content-Length, a flood of spans with one trace id. Each must get its 4xx with a reason, and
 * nothing may be written. Built against the collector's default limits, so the battery tries
 * what a running `seamscope collect` would meet.
 */
export interface HostileRequest {
  id: string;
  status: number;
  /** Words the answer's message must contain. */
  message: string;
  contentType: string;
  encoding?: 'gzip';
  body: () => Promise<Uint8Array | ReadableStream<Uint8Array>>;
}

const PROTOBUF = 'application/x-protobuf';
const JSON_TYPE = 'application/json';

function varint(n: number): Buffer {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  out.push(n);
  return Buffer.from(out);
}

const field = (tag: number, inner: Buffer) => Buffer.concat([Buffer.from([tag]), varint(inner.length), inner]);

/**
 * An ExportTraceServiceRequest whose resource holds one attribute nested `levels` arrays deep:
 * AnyValue.array_value (5) → ArrayValue.values (1) → AnyValue …, inside KeyValue.value (2),
 * Resource.attributes (1), ResourceSpans.resource (1), the request's resource_spans (1).
 */
export function deeplyNested(levels: number): Buffer {
  let value = Buffer.alloc(0);
  for (let i = 0; i < levels; i++) value = field(0x2a, field(0x0a, value));
  return field(0x0a, field(0x0a, field(0x0a, field(0x12, value))));
}

/** One real span, encoded by the official serializer, with the given attributes. */
async function protobufSpan(attributes: Record<string, string>): Promise<Buffer> {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  provider.getTracer('hostile').startSpan('chat mock-model', { kind: SpanKind.CLIENT, attributes: { 'gen_ai.operation.name': 'chat', ...attributes } }).end();
  await provider.forceFlush();
  return Buffer.from(ProtobufTraceSerializer.serializeRequest(exporter.getFinishedSpans()) as Uint8Array);
}

/** A body sent in chunks with no Content-Length: only the count while reading can stop it. */
function chunked(size: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= size) return controller.close();
      sent += 256 * 1024;
      controller.enqueue(new Uint8Array(256 * 1024));
    },
  });
}

function jsonSpans(count: number, traceId: string): string {
  const spans = Array.from({ length: count }, (_, i) => ({
    traceId, spanId: (i + 1).toString(16).padStart(16, '0'), parentSpanId: 'f'.repeat(16), name: 'chat', startTimeUnixNano: '1', endTimeUnixNano: '2',
  }));
  return JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans }] }] });
}

function nestedJson(levels: number): string {
  return `{"resourceSpans":[{"resource":{"attributes":[{"key":"k","value":${'{"arrayValue":{"values":['.repeat(levels)}${']}}'.repeat(levels)}}]},"scopeSpans":[]}]}`;
}

export function hostileCollectorRequests(limits = DEFAULT_LIMITS): HostileRequest[] {
  const utf8 = (text: string) => Buffer.from(text);
  return [
    {
      id: 'collect/protobuf/huge-value', status: 400, message: 'M characters long', contentType: PROTOBUF,
      body: () => protobufSpan({ 'gen_ai.input.messages': 'x'.repeat(limits.maxValueChars + 1) }),
    },
    {
      id: 'collect/protobuf/length-past-the-end', status: 400, message: 'not a valid ExportTraceServiceRequest', contentType: PROTOBUF,
      // resource_spans claiming 2 GiB, followed by four bytes.
      body: async () => Buffer.concat([Buffer.from([0x0a]), varint(2 ** 31), Buffer.from([1, 2, 3, 4])]),
    },
    { id: 'collect/protobuf/nested-past-100', status: 400, message: 'max depth exceeded', contentType: PROTOBUF, body: async () => deeplyNested(1_000) },
    { id: 'collect/protobuf/nested-past-the-reader', status: 400, message: `nested deeper than ${limits.maxDepth} levels`, contentType: PROTOBUF, body: async () => deeplyNested(40) },
    {
      id: 'collect/protobuf/invalid-utf8', status: 400, message: 'not valid for encoding utf-8', contentType: PROTOBUF,
      body: async () => {
        const good = await protobufSpan({ 'gen_ai.request.model': 'mock-model' });
        const at = good.indexOf(Buffer.from('mock-model'));
        good[at] = 0xc3;
        good[at + 1] = 0x28;
        return good;
      },
    },
    {
      id: 'collect/json/invalid-utf8', status: 400, message: 'not valid UTF-8', contentType: JSON_TYPE,
      body: async () => Buffer.concat([utf8('{"resourceSpans":[],"note":"'), Buffer.from([0xff, 0xfe]), utf8('"}')]),
    },
    { id: 'collect/json/nested', status: 400, message: `nested deeper than ${limits.maxDepth} levels`, contentType: JSON_TYPE, body: async () => utf8(nestedJson(5_000)) },
    { id: 'collect/json/duplicate-key', status: 400, message: 'appears twice', contentType: JSON_TYPE, body: async () => utf8('{"resourceSpans":[],"resourceSpans":[]}') },
    {
      id: 'collect/gzip-bomb', status: 413, message: 'after gunzip', contentType: PROTOBUF, encoding: 'gzip',
      body: async () => gzipSync(Buffer.alloc(limits.maxBodyBytes * 4)),
    },
    { id: 'collect/body-past-the-limit-chunked', status: 413, message: 'on the wire', contentType: PROTOBUF, body: async () => chunked(limits.maxBodyBytes * 2) },
    {
      id: 'collect/span-flood-one-trace', status: 400, message: `more than ${limits.maxSpansPerTrace} spans; it was dropped`, contentType: JSON_TYPE,
      body: async () => utf8(jsonSpans(limits.maxSpansPerTrace + 1, 'e'.repeat(32))),
    },
  ];
}

export interface HostileOutcome {
  id: string;
  ok: boolean;
  detail: string;
}

/**
 * Sends each request to the collector and checks the answer: the expected 4xx, a
 * google.rpc.Status-shaped JSON or protobuf body whose message names the reason, and no run
 * file in the collector's folder after everything pending was finished.
 */
export async function tryHostileRequests(target: TestCollector, requests = hostileCollectorRequests()): Promise<HostileOutcome[]> {
  const { decodeStatus } = await import('../collect/index.ts');
  const out: HostileOutcome[] = [];
  for (const r of requests) {
    const headers: Record<string, string> = { 'Content-Type': r.contentType, ...(r.encoding ? { 'Content-Encoding': r.encoding } : {}) };
    let detail: string;
    let ok = false;
    try {
      const res = await fetch(`${target.collector.url}/v1/traces`, { method: 'POST', headers, body: await r.body(), duplex: 'half' } as RequestInit);
      const bytes = new Uint8Array(await res.arrayBuffer());
      const message = res.headers.get('content-type') === PROTOBUF ? decodeStatus(bytes).message : String((JSON.parse(new TextDecoder().decode(bytes)) as { message?: unknown }).message);
      await target.collector.flush();
      const written = await target.files();
      ok = res.status === r.status && message.includes(r.message) && written.length === 0;
      detail = `${res.status}: ${message.slice(0, 160)}${written.length ? `; wrote ${written.length} file(s)` : ''}`;
    } catch (error) {
      detail = `failed: ${(error as Error).message}`;
    }
    out.push({ id: r.id, ok, detail });
  }
  return out;
}
