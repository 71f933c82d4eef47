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
 * It answers with a standard `Response` (so the providers do not know which fetch they got) and
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
      const source = decoded(res, responseHeaders);
      let stream: ReadableStream<Uint8Array> | null = null;
      if (!NULL_BODY.has(status) && init.method !== 'HEAD') {
        stream = new ReadableStream<Uint8Array>({
          start(controller) {
            failBody = (reason) => {
              try {
                controller.error(reason);
              } catch {
                // Already closed or errored.
              }
            };
            source.on('data', (chunk: Buffer) => controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength)));
            source.on('end', () => {
              done();
              controller.close();
            });
            // A connection that closes before the body ended is a cut body (fetch says "terminated").
            res.on('aborted', () => failBody?.(new TypeError('terminated', { cause: new Error('other side closed') })));
            source.on('error', (error) => {
              done();
              failBody?.(new TypeError('terminated', { cause: error }));
            });
          },
          cancel() {
            done();
            res.destroy();
          },
        });
      } else {
        res.resume();
        done();
      }
      let response: Response;
      try {
        response = new Response(stream, { status, statusText: res.statusMessage ?? '', headers: responseHeaders });
      } catch (error) {
        // A status no Response can carry (say 999): the endpoint's answer is not HTTP as fetch knows it.
        res.destroy();
        done();
        settled = true;
        reject(new TypeError('fetch failed', { cause: error }));
        return;
      }
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
