import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { parseRunFile } from '../trace/run-file.ts';
import { recordAgentTrace, startTestCollector, TEST_KEY, type TestCollector } from '../testing/collect-fixtures.ts';
import { otlpTraceExporter, type ExportEncoding } from '../testing/otlp-exporters.ts';
import { decodeExportResponse, decodeStatus } from './otlp-proto.ts';
import { DEFAULT_LIMITS, pressureOf } from './server.ts';

/**
 * `seamscope collect` as an exporter meets it: OpenTelemetry's own OTLP/HTTP exporters send real
 * spans to a collector on a free 127.0.0.1 port, and the run file it writes is read back. Every
 * error status is provoked with a real request, and each time nothing is written.
 */
let open: TestCollector | null = null;
afterEach(async () => {
  await open?.stop();
  open = null;
});

async function collector(limits: Parameters<typeof startTestCollector>[0] = {}) {
  open = await startTestCollector(limits);
  return open;
}

async function sendTrace(url: string, encoding: ExportEncoding, gzip: boolean): Promise<string> {
  const provider = new TracerProvider({ spanProcessors: [new BatchSpanProcessor({ exporter: otlpTraceExporter({ url, encoding, gzip }) })] });
  const traceId = recordAgentTrace(provider.getTracer('seamscope-test'));
  await provider.forceFlush();
  await provider.shutdown();
  return traceId;
}

/** Real spans as the official protobuf serializer encodes them, for hand-made requests. */
async function protobufBody(): Promise<Uint8Array> {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  recordAgentTrace(provider.getTracer('seamscope-test'));
  await provider.forceFlush();
  return ProtobufTraceSerializer.serializeRequest(exporter.getFinishedSpans()) as Uint8Array;
}

async function post(url: string, body: Uint8Array | string | ReadableStream<Uint8Array>, headers: Record<string, string>, path = '/v1/traces', method = 'POST') {
  const res = await fetch(`${url}${path}`, { method, headers, ...(method === 'GET' ? {} : { body, duplex: 'half' }) } as RequestInit);
  return { status: res.status, headers: res.headers, body: new Uint8Array(await res.arrayBuffer()) };
}

const PROTOBUF = { 'Content-Type': 'application/x-protobuf' };
const JSON_TYPE = { 'Content-Type': 'application/json' };

describe('seamscope collect receives real exports', () => {
  for (const encoding of ['protobuf', 'json'] as const) {
    for (const gzip of [false, true]) {
      it(`writes a run file for a trace sent as ${encoding}${gzip ? ', gzipped' : ''}, keys scrubbed`, async () => {
        const c = await collector();
        const traceId = await sendTrace(c.collector.url, encoding, gzip);
        const finished = await c.next();
        if (!finished.ok) throw new Error(finished.message);
        expect(finished).toMatchObject({ traceId, spans: 3 });
        const text = await readFile(finished.path, 'utf8');
        expect(text).not.toContain(TEST_KEY);
        const file = parseRunFile(text);
        if (!file.ok) throw new Error(file.message);
        const run = file.file.run;
        expect(run).toMatchObject({ provider: 'openai', model: 'mock-model', status: 'succeeded' });
        const outputs = file.file.events.filter((e) => e.type === 'step.finished').map((e) => (e as { output?: unknown }).output);
        expect(outputs).toEqual(['Appeals have a deadline and a quick decision.', 'The summary does not say.']);
        expect(await c.files()).toEqual([`${run.id}.run.json`]);
        expect(c.collector.stats()).toMatchObject({ spansAccepted: 3, spansRejected: 0, tracesWritten: 1 });
      });
    }
  }

  it('answers protobuf with an ExportTraceServiceResponse and JSON with its JSON form', async () => {
    const c = await collector();
    const pb = await post(c.collector.url, await protobufBody(), PROTOBUF);
    expect(pb.status).toBe(200);
    expect(pb.headers.get('content-type')).toBe('application/x-protobuf');
    expect(decodeExportResponse('traces', pb.body)).toBeNull();
    const json = await post(c.collector.url, JSON.stringify({ resourceSpans: [] }), JSON_TYPE);
    expect([json.status, json.headers.get('content-type'), new TextDecoder().decode(json.body)]).toEqual([200, 'application/json', '{}']);
  });

  it('accepts the good spans of a request and reports the rejected ones as a partial success', async () => {
    const c = await collector();
    const good = { traceId: 'ab'.repeat(16), spanId: 'cd'.repeat(8), name: 'root', startTimeUnixNano: '1', endTimeUnixNano: '2' };
    const bad = [{ ...good, spanId: '0'.repeat(16) }, { ...good, spanId: 'xyz', name: 'bad id' }];
    const res = await post(c.collector.url, JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [good, ...bad] }] }] }), JSON_TYPE);
    expect(res.status).toBe(200);
    const body = JSON.parse(new TextDecoder().decode(res.body));
    expect(body.partialSuccess.rejectedSpans).toBe('2');
    expect(body.partialSuccess.errorMessage).toMatch(/spans\[1\]: its spanId is all zeros; .*spans\[2\]: spanId must be 16 hex characters/);
    expect(c.collector.stats()).toMatchObject({ spansAccepted: 1, spansRejected: 2 });
  });
});

/** 16 MB of zeros in about 16 KB: sixteen times the tests' 1 MB limit once inflated. */
const bomb = gzipSync(Buffer.alloc(16 * 1024 * 1024));

/** A body sent in chunks with no Content-Length, so only the count while reading can stop it. */
function chunked(size: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= size) return controller.close();
      sent += 64 * 1024;
      controller.enqueue(new Uint8Array(64 * 1024));
    },
  });
}

describe('seamscope collect refuses what it cannot take, and writes nothing', () => {
  const cases: { name: string; expect: number; send: (url: string) => Promise<Awaited<ReturnType<typeof post>>> }[] = [
    { name: 'bytes that are not protobuf', expect: 400, send: (url) => post(url, Uint8Array.from([0x0a, 0xff, 0xff, 0xff, 0x0f, 1]), PROTOBUF) },
    { name: 'JSON that is not JSON', expect: 400, send: (url) => post(url, '{"resourceSpans": [', JSON_TYPE) },
    { name: 'JSON that is not UTF-8', expect: 400, send: (url) => post(url, Uint8Array.from([...Buffer.from('{"resourceSpans":[],"x":"'), 0xc3, 0x28, ...Buffer.from('"}')]), JSON_TYPE) },
    { name: 'gzip that is not gzip', expect: 400, send: (url) => post(url, Buffer.from('not gzip at all'), { ...PROTOBUF, 'Content-Encoding': 'gzip' }) },
    { name: 'a body past the limit', expect: 413, send: (url) => post(url, Buffer.alloc(2 * 1024 * 1024), PROTOBUF) },
    { name: 'a body past the limit with no Content-Length', expect: 413, send: (url) => post(url, chunked(4 * 1024 * 1024), PROTOBUF) },
    { name: 'a gzip bomb', expect: 413, send: (url) => post(url, bomb, { ...PROTOBUF, 'Content-Encoding': 'gzip' }) },
    { name: 'another content type', expect: 415, send: (url) => post(url, 'x', { 'Content-Type': 'text/plain' }) },
    { name: 'another encoding', expect: 415, send: (url) => post(url, 'x', { ...JSON_TYPE, 'Content-Encoding': 'br' }) },
    { name: 'another path', expect: 404, send: (url) => post(url, '{}', JSON_TYPE, '/v1/metrics') },
    { name: 'another method', expect: 405, send: (url) => post(url, '', JSON_TYPE, '/v1/traces', 'GET') },
  ];
  for (const c of cases) {
    it(`${c.name}: ${c.expect} with a google.rpc.Status`, async () => {
      const t = await collector({ maxBodyBytes: 1024 * 1024 });
      const res = await c.send(t.collector.url);
      expect(res.status).toBe(c.expect);
      const status = res.headers.get('content-type') === 'application/x-protobuf' ? decodeStatus(res.body) : JSON.parse(new TextDecoder().decode(res.body));
      expect(status).toEqual({ code: expect.any(Number), message: expect.any(String) });
      expect(status.message.length).toBeGreaterThan(10);
      await t.collector.flush();
      expect(await t.files()).toEqual([]);
      if (c.expect === 405) expect(res.headers.get('allow')).toBe('POST');
    });
  }

  it('answers every too-large streamed body with its 413, never a reset while the client is still sending', async () => {
    // The answer used to close the connection while the client was still writing the rest of the
    // body; the client then saw a reset instead of the 413, now and then (a CI run failed on it).
    const t = await collector({ maxBodyBytes: 256 * 1024 });
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await post(t.collector.url, chunked(512 * 1024 + i * 4096), PROTOBUF)).status);
    expect(statuses).toEqual(Array(20).fill(413));
  });

  it('stops reading a refused body past twice the limit: a sender that never stops is cut off', async () => {
    const t = await collector({ maxBodyBytes: 64 * 1024 });
    const endless = new ReadableStream<Uint8Array>({ pull: (c) => c.enqueue(new Uint8Array(64 * 1024)) });
    const outcome = await post(t.collector.url, endless, PROTOBUF).then((r) => r.status, () => 'cut off');
    // Either the client read the 413 before the close, or it saw the connection end: never a hang.
    expect([413, 'cut off']).toContain(outcome);
  });

  it('says why in the protobuf Status: a bomb is stopped after gunzip, at the limit', async () => {
    const t = await collector({ maxBodyBytes: 1024 * 1024 });
    const res = await post(t.collector.url, bomb, { ...PROTOBUF, 'Content-Encoding': 'gzip' });
    expect(decodeStatus(res.body).message).toBe('the body is larger than 1048576 bytes after gunzip; requests are limited to 1048576 bytes');
  });

  it('answers 429 with Retry-After when too much is pending, and takes the request again once it is written', async () => {
    const t = await collector({ maxPendingSpans: 2, rootGraceMs: 60_000 });
    const body = await protobufBody();
    expect((await post(t.collector.url, body, PROTOBUF)).status).toBe(200);
    const busy = await post(t.collector.url, body, PROTOBUF);
    expect([busy.status, busy.headers.get('retry-after')]).toEqual([429, '1']);
    expect(decodeStatus(busy.body).message).toMatch(/^busy: 3 spans are waiting to be written \(at most 2\)/);
    await t.collector.flush();
    expect(await t.files()).toHaveLength(1);
    expect((await post(t.collector.url, body, PROTOBUF)).status).toBe(200);
  });

  it('counts traces handed to the writer threads against the same bounds: held there, the next request is answered 429', () => {
    const limits = { ...DEFAULT_LIMITS, maxPendingSpans: 10, maxPendingBytes: 1000 };
    // Nothing open on the request thread, everything waiting in the writer threads' queue.
    expect(pressureOf(limits, { requests: 0, spans: 10, bytes: 0, traces: 0 })).toBe('10 spans are waiting to be written (at most 10)');
    expect(pressureOf(limits, { requests: 0, spans: 1, bytes: 1000, traces: 0 })).toMatch(/^0\.0 MB of spans are waiting to be written/);
    expect(pressureOf(limits, { requests: 0, spans: 9, bytes: 999, traces: 0 })).toBeNull();
  });

  it('drops a trace flooded past its span limit: 400, and nothing of it is written', async () => {
    const t = await collector({ maxSpansPerTrace: 100 });
    const traceId = 'ef'.repeat(16);
    const spans = Array.from({ length: 150 }, (_, i) => ({ traceId, spanId: (i + 1).toString(16).padStart(16, '0'), parentSpanId: 'aa'.repeat(8), name: 'chat', startTimeUnixNano: '1', endTimeUnixNano: '2' }));
    const first = await post(t.collector.url, JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: spans.slice(0, 60) }] }] }), JSON_TYPE);
    expect(first.status).toBe(200);
    const flood = await post(t.collector.url, JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: spans.slice(60) }] }] }), JSON_TYPE);
    expect(flood.status).toBe(400);
    expect(JSON.parse(new TextDecoder().decode(flood.body)).message).toMatch(/more than 100 spans; it was dropped/);
    const root = { traceId, spanId: 'aa'.repeat(8), name: 'root', startTimeUnixNano: '1', endTimeUnixNano: '2' };
    expect((await post(t.collector.url, JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [root] }] }] }), JSON_TYPE)).status).toBe(400);
    await t.collector.flush();
    expect(await t.files()).toEqual([]);
    expect(t.collector.stats().pendingSpans).toBe(0);
  });
});
