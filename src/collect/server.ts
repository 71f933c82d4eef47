import { mkdir } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createScrubber } from '../providers/scrub.ts';
import { TraceAssembler, type AssemblerLimits } from './assembler.ts';
import type { FinishedTrace } from './finish.ts';
import { discardRest, readBody } from './http-body.ts';
import { createReadApi, type ReadApiOptions } from './read-api.ts';
import { readLogsRequest, readTraceRequest, type Encoding, type ValueLimits } from './payload.ts';
import { sendExportResponse, sendStatus } from './respond.ts';
import { startTraceWriter } from './trace-writer.ts';

/**
 * `seamscope collect`'s receiver: OTLP/HTTP on `/v1/traces` and `/v1/logs` (protobuf or JSON,
 * gzip or not). Spans are grouped by trace on the thread that answers requests; a finished trace
 * is handed to the writer thread (trace-writer.ts), which scrubs, imports and writes it as a run
 * file in `dir`, one at a time, and its outcome is handed to `onTrace`. What is held is bounded:
 * requests in flight, pending spans and bytes (including traces handed to the writer and not yet
 * written) and open traces; past a bound a request is answered 429 with Retry-After before its
 * body is read, which OTLP exporters retry.
 */
export interface CollectorLimits extends AssemblerLimits, ValueLimits {
  /** The largest body, on the wire and after gunzip. */
  maxBodyBytes: number;
  /** Requests read at once; one more is answered 429. */
  maxConcurrentRequests: number;
  /** What a 429 asks the exporter to wait, in seconds. */
  retryAfterS: number;
}

export const DEFAULT_LIMITS: CollectorLimits = {
  maxBodyBytes: 16 * 1024 * 1024,
  maxValueChars: 4 * 1024 * 1024,
  // The trace reader's own limits, so a request accepted here also imports.
  maxDepth: 64,
  maxNodes: 2_000_000,
  maxSpansPerTrace: 10_000,
  // Counted in wire bytes; decoded, a span takes several times its wire size (bench:collect
  // saw the collector's RSS pass 600 MB with 200,000 spans and 128 MB allowed).
  maxPendingSpans: 50_000,
  maxPendingBytes: 32 * 1024 * 1024,
  maxPendingTraces: 20_000,
  maxConcurrentRequests: 64,
  rootGraceMs: 1_000,
  idleMs: 30_000,
  retryAfterS: 1,
};

export interface CollectorOptions {
  host?: string;
  port?: number;
  dir: string;
  /**
   * Keys to scrub literally, with every key shape (createScrubber's rules), before anything is
   * written or read out. Keys, not a scrubber: the writer thread makes its own from them.
   */
  keys: readonly (string | null | undefined)[];
  onTrace?: (trace: FinishedTrace) => void;
  limits?: Partial<CollectorLimits>;
  /**
   * Threads that import and write finished traces (2 by default). More than one keeps up with
   * more spans a second where there are cores to spare, or other processes to share them with.
   */
  writerThreads?: number;
  /** How often finished traces are looked for. */
  tickMs?: number;
  /** The app's read API (src/collect/read-api.ts): its origins and token. */
  read?: ReadApiOptions;
}

export interface CollectorStats {
  spansAccepted: number;
  spansRejected: number;
  logsAccepted: number;
  logsRejected: number;
  tracesWritten: number;
  tracesNotImported: number;
  /** Answers by HTTP status. */
  responses: Record<number, number>;
  pendingSpans: number;
  pendingTraces: number;
}

export interface Collector {
  url: string;
  /** The bearer token of the read API. */
  readToken: string;
  port: number;
  stats(): CollectorStats;
  /** Finishes every pending trace now and waits until each is written. */
  flush(): Promise<void>;
  /** Stops listening, finishes what is pending, and resolves when everything is written. */
  close(): Promise<void>;
}

/** The encoding a Content-Type names, or null when it is neither OTLP/HTTP encoding. */
function encodingOf(contentType: string | undefined): Encoding | null {
  const media = String(contentType ?? '').split(';')[0]?.trim().toLowerCase();
  return media === 'application/x-protobuf' ? 'protobuf' : media === 'application/json' ? 'json' : null;
}

/** How long a refused request's unread body is read and thrown away before the connection closes. */
const LINGER_MS = 5_000;

/** What the collector holds now: requests being read, and spans, bytes and open traces not yet written. */
export interface Held {
  requests: number;
  spans: number;
  bytes: number;
  traces: number;
}

/** Why a request must wait (the collector answers 429), or null when it may be read. */
export function pressureOf(limits: CollectorLimits, held: Held): string | null {
  if (held.requests >= limits.maxConcurrentRequests) return `${held.requests} requests are being read (at most ${limits.maxConcurrentRequests})`;
  if (held.spans >= limits.maxPendingSpans) return `${held.spans} spans are waiting to be written (at most ${limits.maxPendingSpans})`;
  if (held.bytes >= limits.maxPendingBytes) return `${(held.bytes / 1048576).toFixed(1)} MB of spans are waiting to be written (at most ${(limits.maxPendingBytes / 1048576).toFixed(0)} MB)`;
  if (held.traces >= limits.maxPendingTraces) return `${held.traces} traces are open (at most ${limits.maxPendingTraces})`;
  return null;
}

const ROUTES: Record<string, 'traces' | 'logs'> = { '/v1/traces': 'traces', '/v1/logs': 'logs' };

export async function startCollector(options: CollectorOptions): Promise<Collector> {
  const limits: CollectorLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const assembler = new TraceAssembler(limits);
  await mkdir(options.dir, { recursive: true });
  const readApi = await createReadApi(options.dir, createScrubber(options.keys), options.read);
  const stats: CollectorStats = { spansAccepted: 0, spansRejected: 0, logsAccepted: 0, logsRejected: 0, tracesWritten: 0, tracesNotImported: 0, responses: {}, pendingSpans: 0, pendingTraces: 0 };

  const writer = startTraceWriter({
    dir: options.dir, keys: options.keys, threads: options.writerThreads ?? 2,
    onResult: (result) => {
      if (result.ok) stats.tracesWritten++;
      else stats.tracesNotImported++;
      if (result.ok) readApi.written(result.path);
      options.onTrace?.(result);
    },
  });
  let inFlight = 0;
  const finish = (traces: ReturnType<TraceAssembler['due']>) => {
    writer.write(traces);
    return writer.idle();
  };
  const tick = setInterval(() => writer.write(assembler.due(Date.now())), options.tickMs ?? 250);
  tick.unref();

  const pressure = () => pressureOf(limits, {
    requests: inFlight,
    spans: assembler.pendingSpans + writer.queued.spans,
    bytes: assembler.pendingBytes + writer.queued.bytes,
    traces: assembler.pendingTraces,
  });

  /** Refuses a request whose body was not read to its end: the rest is read first, then the answer closes the connection. */
  const refuse = async (req: IncomingMessage, res: ServerResponse, status: number, encoding: Encoding, message: string, headers?: Record<string, string>) => {
    await discardRest(req, 2 * limits.maxBodyBytes, LINGER_MS);
    sendStatus(res, status, encoding, message, { close: true, headers });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const signal = Object.hasOwn(ROUTES, path) ? ROUTES[path] : undefined;
    const encoding = encodingOf(req.headers['content-type']);
    const reply = encoding ?? 'json';
    if (!signal) return refuse(req, res, 404, reply, `nothing at ${path.slice(0, 100)}: OTLP/HTTP is POST /v1/traces or POST /v1/logs`);
    if (req.method !== 'POST') return refuse(req, res, 405, reply, `${signal} are sent with POST`, { Allow: 'POST' });
    if (!encoding) return refuse(req, res, 415, reply, 'Content-Type must be application/x-protobuf or application/json');
    const busy = pressure();
    if (busy) return refuse(req, res, 429, encoding, `busy: ${busy}; retry after ${limits.retryAfterS} s`, { 'Retry-After': String(limits.retryAfterS) });
    inFlight++;
    try {
      const body = await readBody(req, limits.maxBodyBytes);
      if (!body.ok) return await refuse(req, res, body.status, encoding, body.message);
      const now = Date.now();
      const noun = signal === 'traces' ? 'span' : 'log record';
      let accepted: number;
      let rejected: number;
      let reasons: string[];
      if (signal === 'traces') {
        const read = readTraceRequest(body.body, encoding, limits);
        if (!read.ok) return sendStatus(res, 400, encoding, read.message);
        const added = assembler.addSpans(read.items, now);
        ({ accepted } = added);
        rejected = read.rejected + added.rejected;
        reasons = [...read.reasons, ...added.reasons];
        stats.spansAccepted += accepted;
        stats.spansRejected += rejected;
      } else {
        const read = readLogsRequest(body.body, encoding, limits);
        if (!read.ok) return sendStatus(res, 400, encoding, read.message);
        const added = assembler.addLogs(read.items, now);
        ({ accepted } = added);
        rejected = read.rejected + added.rejected;
        reasons = [...read.reasons, ...added.reasons];
        stats.logsAccepted += accepted;
        stats.logsRejected += rejected;
      }
      const why = reasons.slice(0, 3).join('; ');
      if (rejected > 0 && accepted === 0) return sendStatus(res, 400, encoding, `every ${noun} was rejected (${rejected}): ${why}`);
      sendExportResponse(res, encoding, signal, rejected > 0 ? { rejected, message: `${rejected} ${noun}(s) rejected: ${why}` } : null);
    } finally {
      inFlight--;
    }
  };

  const server = createServer((req, res) => {
    // The app's polls are not OTLP: not counted, not limited as exports are.
    if (readApi.serves(req)) return void readApi.handle(req, res).catch(() => res.destroy());
    res.on('finish', () => {
      stats.responses[res.statusCode] = (stats.responses[res.statusCode] ?? 0) + 1;
    });
    handle(req, res).catch((error: unknown) => {
      // A bug must answer, not hang the exporter; the message names no value from the request.
      if (!res.headersSent) sendStatus(res, 500, 'json', `the collector failed: ${(error as Error).message}`, { close: true });
      else res.destroy();
    });
  });
  server.requestTimeout = 60_000;
  server.headersTimeout = 20_000;
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 4318, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;

  return {
    url: `http://${urlHost}:${port}`,
    readToken: readApi.token,
    port,
    stats: () => ({ ...stats, responses: { ...stats.responses }, pendingSpans: assembler.pendingSpans + writer.queued.spans, pendingTraces: assembler.pendingTraces + writer.queued.traces }),
    flush: () => finish(assembler.drain()),
    async close() {
      clearInterval(tick);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await finish(assembler.drain());
      await writer.close();
    },
  };
}
