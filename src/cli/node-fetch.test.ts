import { createServer, type Server } from 'node:http';
import { Agent as HttpsAgent, createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError } from '../providers/errors.ts';
import { createOpenAIProvider } from '../providers/openai.ts';
import { createFixtureServer, type FixtureServer } from '../testing/fixture-server.ts';
import { LOOPBACK_TLS } from '../testing/loopback-tls.ts';
import { createNodeFetch } from './node-fetch.ts';

const nodeFetch = createNodeFetch();
const post = { method: 'POST', redirect: 'error' } as const;

let fixture: FixtureServer;
let slow: Server;
let slowUrl = '';
const release: (() => void)[] = [];
beforeAll(async () => {
  fixture = await createFixtureServer();
  // Sends its first chunk at once and the rest only when a test releases it: streaming is observable.
  slow = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('data: first\n\n');
    release.push(() => res.end('data: second\n\n'));
  });
  await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
  slowUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const r of release) r();
  slow.closeAllConnections();
  await new Promise((r) => slow.close(r));
  await fixture.close();
});

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a rejection');
}

describe('node fetch (the CLI and workers)', () => {
  it('sends what fetch sends and answers with the same Response', async () => {
    fixture.reply({ status: 201, headers: { 'x-request-id': 'req_1', 'retry-after-ms': '20' }, body: '{"ok":true,"text":"Fünf €"}' });
    const init = { ...post, headers: { 'content-type': 'application/json', authorization: 'Bearer k' }, body: '{"q":"Wie viele Tage? 180"}' };
    const ours = await nodeFetch(`${fixture.url}/v1/chat/completions`, init);
    const theirs = await fetch(`${fixture.url}/v1/chat/completions`, init);
    expect(ours.status).toBe(theirs.status);
    expect(ours.headers.get('x-request-id')).toBe('req_1');
    expect(ours.headers.get('retry-after-ms')).toBe('20');
    expect(await ours.text()).toBe(await theirs.text());
    const [a, b] = fixture.requests.slice(-2);
    expect(a?.body).toBe(b?.body);
    expect(a?.method).toBe('POST');
    expect(a?.headers['content-length']).toBe(b?.headers['content-length']);
    expect(a?.headers.authorization).toBe('Bearer k');
  });

  it('decodes a body as fetch does (a leading BOM dropped, bad bytes replaced) and reads it once', async () => {
    const server = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' }).end(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":"'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('é"}')]));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const ours = await nodeFetch(url, { ...post, body: '{}' });
      const theirs = await fetch(url, { ...post, body: '{}' });
      expect(await ours.text()).toBe(await theirs.text());
      expect(ours.bodyUsed).toBe(true);
      expect(await rejection(ours.text())).toBeInstanceOf(TypeError);
      expect(await (await nodeFetch(url, { ...post, body: '{}' })).json()).toEqual(await (await fetch(url, { ...post, body: '{}' })).json());
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  it('settles at the headers and streams the body as it arrives', async () => {
    const res = await nodeFetch(slowUrl, { ...post, body: '{}' });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('data: first\n\n');
    release.shift()?.();
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += new TextDecoder().decode(chunk.value);
    expect(rest).toBe('data: second\n\n');
  });

  it('rejects with the signal’s reason before the request, while waiting, and while reading', async () => {
    const before = new AbortController();
    before.abort(new DOMException('stop', 'AbortError'));
    expect((await rejection(nodeFetch(slowUrl, { ...post, signal: before.signal }))).name).toBe('AbortError');

    const reading = new AbortController();
    const res = await nodeFetch(slowUrl, { ...post, body: '{}', signal: reading.signal });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    reading.abort(new DOMException('timed out', 'TimeoutError'));
    expect((await rejection(reader.read())).name).toBe('TimeoutError');
  });

  it('a redirect is refused (redirect: error) or handed back (manual), never followed', async () => {
    const elsewhere = await createFixtureServer();
    try {
      fixture.reply({ status: 307, headers: { location: `${elsewhere.url}/x` }, body: '' });
      const err = await rejection(nodeFetch(fixture.url, { ...post, body: '{}' }));
      expect(err).toBeInstanceOf(TypeError);
      expect(((err as TypeError).cause as Error).message).toBe('unexpected redirect');
      const manual = await nodeFetch(fixture.url, { method: 'POST', redirect: 'manual', body: '{}' });
      expect(manual.status).toBe(307);
      expect(elsewhere.requests).toHaveLength(0);
    } finally {
      await elsewhere.close();
    }
  });

  it('an unreachable host is a TypeError with the socket’s error as its cause, as in fetch', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const err = await rejection(nodeFetch(`http://127.0.0.1:${port}/`, { ...post, body: '{}' }));
    expect(err).toBeInstanceOf(TypeError);
    expect(((err as TypeError).cause as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');
  });

  it('a body cut after the headers fails the read, not the request', async () => {
    fixture.reply({ body: '{"choices":[{"message":{"content":"a long answer that is cut"}}]}', cutAfterBytes: 12 });
    const res = await nodeFetch(fixture.url, { ...post, body: '{}' });
    expect(res.status).toBe(200);
    expect(await rejection(res.text())).toBeInstanceOf(TypeError);
  });

  it('decodes a gzip body and gives a 204 no body', async () => {
    const zipped = gzipSync('{"compressed":true}');
    const server = createServer((req, res) => {
      req.resume();
      if (req.url === '/none') return void res.writeHead(204).end();
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'application/json' }).end(zipped);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect(await (await nodeFetch(`${url}/zip`, { ...post, body: '{}' })).json()).toEqual({ compressed: true });
      const none = await nodeFetch(`${url}/none`, { ...post, body: '{}' });
      expect(none.status).toBe(204);
      expect(none.body).toBeNull();
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  it('speaks HTTPS, verifying the certificate: a server it does not trust is refused', async () => {
    const server = createHttpsServer(LOOPBACK_TLS, (req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"tls":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
    const trusting = new HttpsAgent({ keepAlive: true, ca: LOOPBACK_TLS.cert });
    try {
      const res = await createNodeFetch(fetch, { httpsAgent: trusting })(url, { ...post, body: '{}' });
      expect(await res.json()).toEqual({ tls: true });
      const refused = await rejection(nodeFetch(url, { ...post, body: '{}' }));
      expect(refused).toBeInstanceOf(TypeError);
      expect(((refused as TypeError).cause as NodeJS.ErrnoException).code).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
    } finally {
      trusting.destroy();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  it('hands anything else to the fetch it was given', async () => {
    const seen: string[] = [];
    const fallback = (async (input: string | URL | Request) => {
      seen.push(String(input instanceof Request ? input.url : input));
      return new Response('fallback');
    }) as typeof fetch;
    const f = createNodeFetch(fallback);
    await f(`${fixture.url}/follow`, { method: 'POST', body: '{}' });
    await f(new Request(`${fixture.url}/request`), { redirect: 'error' });
    await f('file:///etc/passwd', { redirect: 'error' });
    expect(seen).toEqual([`${fixture.url}/follow`, `${fixture.url}/request`, 'file:///etc/passwd']);
  });

  it('drives a provider to the same answer and errors as the global fetch', async () => {
    const body = JSON.stringify({ id: 'c1', object: 'chat.completion', model: 'gpt-4o', choices: [{ index: 0, message: { role: 'assistant', content: 'Within 60 days.' }, finish_reason: 'stop' }], usage: { prompt_tokens: 9, completion_tokens: 4, total_tokens: 13 } });
    const provider = createOpenAIProvider({ baseUrl: `${fixture.url}/v1`, apiKey: 'sk-test-123456' });
    const request = { model: 'gpt-4o', maxTokens: 64, messages: [{ role: 'user' as const, content: 'How long?' }] };
    fixture.reply({ body });
    const ours = await provider.call(request, { fetch: nodeFetch });
    fixture.reply({ body });
    const theirs = await provider.call(request, { fetch });
    expect(ours.text).toBe('Within 60 days.');
    expect({ ...ours, rawResponse: null }).toEqual({ ...theirs, rawResponse: null });
    fixture.reply({ status: 429, headers: { 'retry-after-ms': '50' }, body: '{"error":{"message":"slow down","type":"rate_limit"}}' });
    const limited = await rejection(provider.call(request, { fetch: nodeFetch }));
    expect(limited).toBeInstanceOf(ProviderError);
    expect((limited as ProviderError).code).toBe('rate_limited');
    expect((limited as ProviderError).retryAfterMs).toBe(50);
  });
});
