import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from './main.ts';

/**
 * A webhook is egress: `seamscope run` posts nowhere unless --allow-webhook names the origin,
 * and says so before any input is read or any endpoint called. `validate` warns about it, and
 * refuses webhook headers that carry credentials.
 */
function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t), env: {} }, out, err };
}

const received: string[] = [];
const listener = createServer((req: IncomingMessage, res) => {
  received.push(`${req.method} ${req.url}`);
  req.resume();
  req.on('end', () => res.writeHead(200).end('{}'));
});
let origin = '';
beforeAll(async () => {
  await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => listener.close(() => r())));

async function hookChain(headers: Record<string, string> = {}, url = ''): Promise<{ dir: string; path: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'seamscope-egress-'));
  const path = join(dir, 'hook.chain.json');
  await writeFile(path, JSON.stringify({
    format: 'seamscope.chain', version: 1, id: 'hook', name: 'Hook',
    inputs: [{ name: 'question', schema: { type: 'string' }, example: 'How many days?' }],
    steps: [
      { id: 'answer', kind: 'model', name: 'Answer', config: { bindings: { question: 'inputs.question' }, prompt: 'Answer: {question}', outputSchema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false } } },
      { id: 'send', kind: 'webhook', name: 'Send', config: { bindings: { value: 'steps.answer' }, url: url || `${origin}/hook`, headers } },
    ],
  }));
  return { dir, path };
}

describe('webhook egress from the CLI', () => {
  it('refuses to run without --allow-webhook for that origin: nothing posted, no run file, the flag named', async () => {
    const { dir, path } = await hookChain();
    for (const extra of [[], ['--allow-webhook', 'http://127.0.0.1:1'], ['--allow-webhook', origin.replace('http:', 'https:')]]) {
      const { io, err, out } = capture();
      received.length = 0;
      expect(await main(['run', path, '--out', join(dir, 'run.json'), ...extra], io)).toBe(1);
      expect(err.join('\n')).toContain(`--allow-webhook ${origin}`);
      expect(err.join('\n')).toContain('Nothing was sent');
      expect(out).toEqual([]);
      expect(received).toEqual([]);
      expect(await readdir(dir)).toEqual(['hook.chain.json']);
    }
  });

  it('posts once the origin is allowed (repeatable flag; a full URL is read as its origin)', async () => {
    const { dir, path } = await hookChain();
    const { io } = capture();
    received.length = 0;
    expect(await main(['run', path, '--out', join(dir, 'run.json'), '--allow-webhook', 'https://elsewhere.example', '--allow-webhook', `${origin}/anything`], io)).toBe(0);
    expect(received).toEqual(['POST /hook']);
  });

  it('refuses an --allow-webhook value that is not an http(s) origin, or carries a password', async () => {
    const { path } = await hookChain();
    for (const bad of ['hooks.example.com', 'ftp://x.example', 'https://user:pw@x.example']) {
      const { io, err } = capture();
      expect(await main(['run', path, '--allow-webhook', bad], io)).toBe(1);
      expect(err.join('\n')).toContain('--allow-webhook needs an http(s) origin');
    }
    expect(received.filter((r) => r.startsWith('POST'))).toHaveLength(1);
  });

  it('validate warns about unconfirmed egress and names the flag', async () => {
    const { path } = await hookChain();
    const { io, err } = capture();
    expect(await main(['validate', path], io)).toBe(0);
    expect(err.join('\n')).toContain(`posts to ${origin}: unconfirmed egress`);
    expect(err.join('\n')).toContain(`--allow-webhook ${origin}`);
  });

  it('validate refuses webhook headers that carry credentials, with the path', async () => {
    for (const name of ['Authorization', 'proxy-authorization', 'Cookie', 'X-Api-Key', 'Api-Key', 'X-Auth-Token', 'x-client-secret', 'X-Signing-Key']) {
      const { path } = await hookChain({ [name]: 'value' });
      const { io, err } = capture();
      expect(await main(['validate', path], io)).toBe(1);
      expect(err.join('\n')).toContain(/^[A-Za-z_]\w*$/.test(name) ? `steps[1].config.headers.${name}` : `steps[1].config.headers["${name}"]`);
      expect(err.join('\n')).toContain('secrets come from endpoint profiles only');
    }
    const { path } = await hookChain({ 'X-Team': 'support' });
    expect(await main(['validate', path], capture().io)).toBe(0);
  });

  it('validate refuses a webhook URL with a user name or password in it', async () => {
    const { path } = await hookChain({}, origin.replace('http://', 'http://me:s3cretpw@'));
    const { io, err } = capture();
    expect(await main(['validate', path], io)).toBe(1);
    expect(err.join('\n')).toContain('steps[1].config.url');
    expect(err.join('\n')).toContain('user name or password');
  });

  it('refuses an --endpoint with a user name or password in it', async () => {
    const { path } = await hookChain();
    const { io, err } = capture();
    expect(await main(['run', path, '--allow-webhook', origin, '--endpoint', 'http://alice:s3cretpw@127.0.0.1:9/v1'], io)).toBe(1);
    expect(err.join('\n')).toContain('user name or password');
    expect(err.join('\n')).not.toContain('s3cretpw');
  });
});
