import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable } from 'node:stream';

/**
 * `fetch` for the CLI and the batch workers, over node:http and node:https. Node's own fetch
 * (undici's, built on web streams) spends about four times the CPU of node:http on each request:
 * on an eval against a fast endpoint that was the largest single cost of an item, and on a
 * two-core machine running a worker beside Redis it was a third of the worker's time.
 *
 * It answers with what the providers read of a `Response` (see NodeResponse) and
 * keeps fetch's semantics where the engine relies on them: the promise settles when the headers
 * arrive and the body streams after (a stream cut after the headers is a failed body read, not a
 * failed request); an abort rejects with the signal's reason, before or during the body; a
 * network failure rejects with a TypeError whose cause is the socket's error; `redirect: 'error'`
 * rejects on a 3xx as undici does ("unexpected redirect"), `redirect: 'manual'` hands the 3xx back.
 * gzip, deflate and br bodies are decoded (none is asked for: no accept-encoding is sent).
 *
 * Only such requests take this path: the providers' and the webhook step's (a string URL or URL
 * over http(s), a string or bytes body, redirects not followed). Anything else (a redirect to
 * follow, a Request object, a stream body) goes to the global fetch unchanged.
 */
export function createNodeFetch(fallback: typeof fetch = globalThis.fetch.bind(globalThis), opts: { httpsAgent?: HttpsAgent } = {}): typeof fetch {
  // Kept-alive sockets: idle ones are unref'd by the agent, so they never hold the process open.
  // TLS is Node's own, with its CA store (NODE_EXTRA_CA_CERTS adds a private CA, as for fetch).
  const agents = { 'http:': new HttpAgent({ keepAlive: true }), 'https:': opts.httpsAgent ?? new HttpsAgent({ keepAlive: true }) };
  const nodeFetch = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = typeof input === 'string' ? safeUrl(input) : input instanceof URL ? input : null;
    const body = init?.body;
    const plainBody = body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array;
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !plainBody || (init?.redirect !== 'error' && init?.redirect !== 'manual')) {
      return fallback(input, init);
    }
    return send(url, init, body ?? null, agents[url.protocol]);
  };
  return nodeFetch as typeof fetch;
}

function safeUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

/**
 * A body as it arrives: chunks are kept from the first byte (the socket is never paused), read
 * whole by text()/json() or chunk by chunk through `body` (a web stream, made only when asked
 * for: an SSE reader). A failure (cut, abort) is given to the reader after the chunks before it.
 */
class BodySource {
  private readonly chunks: Uint8Array[] = [];
  private ended = false;
  private failure: { reason: unknown } | null = null;
  private wake: (() => void) | null = null;

  constructor(stream: Readable, private readonly finished: () => void) {
    stream.on('data', (chunk: Buffer) => {
      this.chunks.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      this.poke();
    });
    stream.on('end', () => {
      this.ended = true;
      this.finished();
      this.poke();
    });
    stream.on('error', (error) => this.fail(new TypeError('terminated', { cause: error })));
  }

  fail(reason: unknown): void {
    if (this.ended || this.failure) return;
    this.failure = { reason };
    this.finished();
    this.poke();
  }

  private poke(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  /** The next chunk, or null at the end; rejects with the failure once the chunks before it are read. */
  async next(): Promise<Uint8Array | null> {
    for (;;) {
      const chunk = this.chunks.shift();
      if (chunk) return chunk;
      if (this.failure) throw this.failure.reason;
      if (this.ended) return null;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  async all(): Promise<Uint8Array> {
    const parts: Uint8Array[] = [];
    for (let chunk = await this.next(); chunk; chunk = await this.next()) parts.push(chunk);
    return parts.length === 1 ? (parts[0] as Uint8Array) : Buffer.concat(parts);
  }
}

/**
 * What the providers and the webhook step read of a response (status, ok, headers, type, text(),
 * json(), arrayBuffer(), and `body` for a stream), without a web-stream pipe under every body:
 * a standard Response pumped each JSON answer through one, a tenth of an eval's CPU on a fast
 * endpoint. Bodies are read once, as with fetch; text() decodes as fetch does (UTF-8, a leading
 * BOM dropped, bad bytes replaced).
 */
class NodeResponse {
  readonly type = 'basic';
  readonly redirected = false;
  readonly ok: boolean;
  private used = false;
  private stream: ReadableStream<Uint8Array> | null = null;

  constructor(readonly url: string, readonly status: number, readonly statusText: string, readonly headers: Headers, private readonly source: BodySource | null, private readonly cancelBody: () => void) {
    this.ok = status >= 200 && status < 300;
  }

  get bodyUsed(): boolean {
    return this.used;
  }

  get body(): ReadableStream<Uint8Array> | null {
    const source = this.source;
    if (!source) return null;
    this.stream ??= new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        this.used = true;
        const chunk = await source.next();
        if (chunk) controller.enqueue(chunk);
        else controller.close();
      },
      cancel: () => this.cancelBody(),
    });
    return this.stream;
  }

  private async bytes(): Promise<Uint8Array> {
    if (this.used || this.stream) throw new TypeError('Body is unusable: Body has already been read');
    this.used = true;
    return this.source ? this.source.all() : new Uint8Array(0);
  }

  async text(): Promise<string> {
    return new TextDecoder().decode(await this.bytes());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text()) as unknown;
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = await this.bytes();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  clone(): never {
    throw new TypeError('a response from the CLI transport cannot be cloned');
  }
}

/** The statuses a Response may not carry a body with. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

function send(url: URL, init: RequestInit, body: string | Uint8Array | null, agent: HttpAgent | HttpsAgent): Promise<Response> {
  const signal = init.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(signal.reason);
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((value, name) => {
    headers[name] = value;
  });
  if (body !== null) headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<Response>((resolve, reject) => {
    let settled = false;
    let failBody: ((reason: unknown) => void) | null = null;
    const onAbort = () => {
      const reason = signal?.reason;
      req.destroy();
      if (!settled) {
        settled = true;
        reject(reason);
      } else failBody?.(reason);
    };
    const done = () => signal?.removeEventListener('abort', onAbort);
    const req = request(url, { method: init.method ?? 'GET', headers, agent }, (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && init.redirect === 'error') {
        res.destroy();
        done();
        settled = true;
        reject(new TypeError('fetch failed', { cause: new Error('unexpected redirect') }));
        return;
      }
      const responseHeaders = new Headers();
      for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) responseHeaders.append(res.rawHeaders[i] as string, res.rawHeaders[i + 1] as string);
      if (status < 200 || status > 599) {
        // A status fetch has no Response for (say 999): the endpoint's answer is not HTTP as fetch knows it.
        res.destroy();
        done();
        settled = true;
        reject(new TypeError('fetch failed', { cause: new RangeError(`status ${status} is outside 200-599`) }));
        return;
      }
      let source: BodySource | null = null;
      if (!NULL_BODY.has(status) && init.method !== 'HEAD') {
        const body = new BodySource(decoded(res, responseHeaders), done);
        failBody = (reason) => body.fail(reason);
        // A connection that closes before the body ended is a cut body (fetch says "terminated").
        res.on('aborted', () => body.fail(new TypeError('terminated', { cause: new Error('other side closed') })));
        source = body;
      } else {
        res.resume();
        done();
      }
      const response = new NodeResponse(url.href, status, res.statusMessage ?? '', responseHeaders, source, () => res.destroy()) as unknown as Response;
      settled = true;
      resolve(response);
    });
    req.on('error', (error) => {
      done();
      if (!settled) {
        settled = true;
        reject(signal?.aborted ? signal.reason : new TypeError('fetch failed', { cause: error }));
      } else failBody?.(new TypeError('terminated', { cause: error }));
    });
    signal?.addEventListener('abort', onAbort, { once: true });
    req.end(body ?? undefined);
  });
}

/** The body as sent, decoded when the endpoint compressed it. */
function decoded(res: IncomingMessage, headers: Headers): Readable {
  const encoding = (headers.get('content-encoding') ?? '').trim().toLowerCase();
  const decoder = encoding === 'gzip' || encoding === 'x-gzip' ? createGunzip() : encoding === 'deflate' ? createInflate() : encoding === 'br' ? createBrotliDecompress() : null;
  if (!decoder) return res;
  res.on('error', (error) => decoder.destroy(error));
  return res.pipe(decoder);
}
