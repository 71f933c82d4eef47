import { request } from 'node:http';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { importTraceText } from '../formats/index.ts';
import { stepRegistry } from '../steps/index.ts';
import { recordAgentTrace, TEST_KEY } from '../testing/collect-fixtures.ts';
import { otlpTraceExporter } from '../testing/otlp-exporters.ts';
import { startCollector, type Collector } from './server.ts';
import type { FinishedTrace } from './finish.ts';

/**
 * The app's read API on a real collector over HTTP: only the app's origin, only with the
 * token, a cursor that moves forward, and nothing read from outside the collector's folder.
 * The files it lists import through the app's own importer (importTraceText).
 */
const APP = 'http://127.0.0.1:5173';
const open: { collector: Collector; dir: string }[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) {
    await o.collector.close();
    await rm(path.dirname(o.dir), { recursive: true, force: true });
  }
});

/** A collector whose folder is `<tmp>/runs`, so `<tmp>` is outside it; `before` fills the folder first. */
async function collector(before?: (dir: string, outside: string) => Promise<void>) {
  const root = await mkdtemp(path.join(tmpdir(), 'seamscope-read-api-'));
  const dir = path.join(root, 'runs');
  await mkdir(dir);
  await before?.(dir, root);
  const finished: FinishedTrace[] = [];
  const c = await startCollector({
    port: 0, dir, keys: [TEST_KEY],
    limits: { rootGraceMs: 30 }, tickMs: 10, read: { appOrigins: [APP] },
    onTrace: (t) => finished.push(t),
  });
  open.push({ collector: c, dir });
  return { collector: c, dir, finished };
}

interface Answer { status: number; headers: Record<string, string | string[] | undefined>; body: string }

/** A raw request: the path goes as written (fetch would resolve `..` before sending it). */
function send(url: string, rawPath: string, { method = 'GET', headers = {} }: { method?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${rawPath}`, { method, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const auth = (c: Collector, origin = APP) => ({ Authorization: `Bearer ${c.readToken}`, Origin: origin });
type Listing = { collector: string; runs: { cursor: number; name: string; text: string }[]; next: number; more: boolean; total: number };
const listing = (a: Answer) => JSON.parse(a.body) as Listing;

async function sendTrace(c: Collector): Promise<void> {
  const provider = new TracerProvider({ spanProcessors: [new BatchSpanProcessor({ exporter: otlpTraceExporter({ url: c.url, encoding: 'protobuf' }) })] });
  recordAgentTrace(provider.getTracer('seamscope-test'));
  await provider.shutdown();
}

async function until<T>(get: () => T | undefined): Promise<T> {
  for (;;) {
    const value = get();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('the read API: the token', () => {
  it('is made at start, differs between collectors, and is required: none or a wrong one is 401', async () => {
    const [a, b] = [await collector(), await collector()];
    expect(a.collector.readToken).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(b.collector.readToken).not.toBe(a.collector.readToken);
    const none = await send(a.collector.url, '/v1/seamscope/runs', { headers: { Origin: APP } });
    const wrong = await send(a.collector.url, '/v1/seamscope/runs', { headers: auth(b.collector) });
    const shaped = await send(a.collector.url, '/v1/seamscope/runs', { headers: { Origin: APP, Authorization: `Basic ${a.collector.readToken}` } });
    for (const refused of [none, wrong, shaped]) {
      expect(refused.status).toBe(401);
      // The app may read the refusal, so it can say the token was wrong.
      expect(refused.headers['access-control-allow-origin']).toBe(APP);
      expect(refused.body).not.toContain('runs');
    }
    expect((await send(a.collector.url, '/v1/seamscope/runs', { headers: auth(a.collector) })).status).toBe(200);
  });
});

describe('the read API: CORS', () => {
  it('answers the app origin, with its preflight; another origin gets 403 and no CORS header', async () => {
    const { collector: c } = await collector();
    const ok = await send(c.url, '/v1/seamscope/runs', { headers: auth(c) });
    expect([ok.status, ok.headers['access-control-allow-origin'], ok.headers.vary]).toEqual([200, APP, 'Origin']);
    const preflight = await send(c.url, '/v1/seamscope/runs?after=0', { method: 'OPTIONS', headers: { Origin: APP, 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers).toMatchObject({ 'access-control-allow-origin': APP, 'access-control-allow-methods': 'GET', 'access-control-allow-headers': 'Authorization' });
    for (const other of ['http://evil.example', 'http://127.0.0.1:5174', 'null']) {
      const page = await send(c.url, '/v1/seamscope/runs', { headers: auth(c, other) });
      const pre = await send(c.url, '/v1/seamscope/runs', { method: 'OPTIONS', headers: { Origin: other, 'Access-Control-Request-Method': 'GET' } });
      for (const refused of [page, pre]) {
        expect(refused.status).toBe(403);
        expect(refused.headers['access-control-allow-origin']).toBeUndefined();
        expect(refused.body).not.toContain('"runs"');
      }
    }
  });

  it('answers only GET (and the preflight)', async () => {
    const { collector: c } = await collector();
    const post = await send(c.url, '/v1/seamscope/runs', { method: 'POST', headers: auth(c) });
    expect([post.status, post.headers.allow]).toEqual([405, 'GET, OPTIONS']);
  });
});

describe('the read API: the cursor', () => {
  it('lists each finished trace once, oldest first, as text the app imports as it would a file', async () => {
    const { collector: c, finished } = await collector();
    const empty = listing(await send(c.url, '/v1/seamscope/runs?after=0', { headers: auth(c) }));
    expect(empty).toMatchObject({ runs: [], next: 0, more: false, total: 0 });
    await sendTrace(c);
    const first = await until(() => finished[0]);
    if (!first.ok) throw new Error(first.message);
    const one = listing(await send(c.url, '/v1/seamscope/runs?after=0', { headers: auth(c) }));
    expect(one.runs.map((r) => [r.cursor, r.name])).toEqual([[1, path.basename(first.path)]]);
    expect([one.next, one.more, one.total, one.collector]).toEqual([1, false, 1, empty.collector]);
    const imported = importTraceText(one.runs[0]?.text ?? '', stepRegistry);
    if (!imported.ok) throw new Error(imported.message);
    expect([imported.format, imported.run.id, imported.run.status]).toEqual(['seamscope-run', first.run.id, 'succeeded']);
    expect(one.runs[0]?.text).not.toContain(TEST_KEY);

    expect(listing(await send(c.url, '/v1/seamscope/runs?after=1', { headers: auth(c) }))).toMatchObject({ runs: [], next: 1 });
    await sendTrace(c);
    const second = await until(() => finished[1]);
    if (!second.ok) throw new Error(second.message);
    const next = listing(await send(c.url, '/v1/seamscope/runs?after=1', { headers: auth(c) }));
    expect(next.runs.map((r) => [r.cursor, r.name])).toEqual([[2, path.basename(second.path)]]);
    expect(next.total).toBe(2);
    // A cursor from another collector (past the end) reads nothing twice and nothing wrong.
    expect(listing(await send(c.url, '/v1/seamscope/runs?after=99', { headers: auth(c) }))).toMatchObject({ runs: [], next: 2 });
  });

  it('counts every file it lists (total), also those past the page it answers with', async () => {
    const { collector: c } = await collector(async (dir) => {
      for (let i = 0; i < 23; i++) await writeFile(path.join(dir, `earlier-${String(i).padStart(2, '0')}.run.json`), `{"n": ${i}}`);
    });
    const page = listing(await send(c.url, '/v1/seamscope/runs?after=0', { headers: auth(c) }));
    expect([page.runs.length, page.next, page.more, page.total]).toEqual([20, 20, true, 23]);
    const rest = listing(await send(c.url, '/v1/seamscope/runs?after=20', { headers: auth(c) }));
    expect([rest.runs.length, rest.next, rest.more, rest.total]).toEqual([3, 23, false, 23]);
  });

  it('lists the run files the folder held at start before the new ones, and refuses a cursor that is not one', async () => {
    const { collector: c } = await collector(async (dir) => {
      await writeFile(path.join(dir, 'earlier.run.json'), '{"an": "earlier run file", "auth": "Bearer sk-leaked-0123456789"}');
      await writeFile(path.join(dir, 'notes.txt'), 'not a run file');
    });
    const all = listing(await send(c.url, '/v1/seamscope/runs', { headers: auth(c) }));
    expect(all.runs.map((r) => r.name)).toEqual(['earlier.run.json']);
    // Keys are scrubbed on the way out too, for a file the collector did not write.
    expect(all.runs[0]?.text).toBe('{"an": "earlier run file", "auth": "Bearer [redacted]"}');
    for (const bad of ['-1', '1e3', 'abc', '', '9999999999']) {
      expect((await send(c.url, `/v1/seamscope/runs?after=${bad}`, { headers: auth(c) })).status).toBe(400);
    }
  });
});

describe('the read API: nothing outside its folder', () => {
  it('never follows a link out of the folder, never reads a subfolder, and other paths are 404', async () => {
    const { collector: c } = await collector(async (dir, outside) => {
      await writeFile(path.join(outside, 'secret.run.json'), 'SECRET OUTSIDE');
      await symlink(path.join(outside, 'secret.run.json'), path.join(dir, 'linked.run.json'));
      await mkdir(path.join(dir, 'nested.run.json'));
      await writeFile(path.join(dir, 'nested.run.json', 'inner.run.json'), 'SECRET NESTED');
      await writeFile(path.join(dir, 'kept.run.json'), '{"kept": true}');
    });
    const all = listing(await send(c.url, '/v1/seamscope/runs', { headers: auth(c) }));
    expect(all.runs.map((r) => r.name)).toEqual(['kept.run.json']);
    for (const p of ['/v1/seamscope/runs/../../secret.run.json', '/v1/seamscope/runs/kept.run.json', '/v1/seamscope/linked.run.json', '/v1/seamscope', '/../secret.run.json']) {
      const res = await send(c.url, p, { headers: auth(c) });
      expect(res.status, p).toBe(404);
      expect(res.body).not.toContain('SECRET');
    }
  });

  it('skips a listed file that was swapped for a link after it was written', async () => {
    const { collector: c, dir, finished } = await collector(async (_dir, outside) => writeFile(path.join(outside, 'secret.txt'), 'SECRET OUTSIDE'));
    await sendTrace(c);
    const first = await until(() => finished[0]);
    if (!first.ok) throw new Error(first.message);
    await rm(first.path);
    await symlink(path.join(path.dirname(dir), 'secret.txt'), first.path);
    const all = listing(await send(c.url, '/v1/seamscope/runs', { headers: auth(c) }));
    expect([all.runs, all.next]).toEqual([[], 1]);
  });
});
