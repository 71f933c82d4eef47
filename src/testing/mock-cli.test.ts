import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/** The mock as a process must always go away by itself: signal, idle, or a vanished parent. */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSX = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));
const started: ChildProcess[] = [];

afterAll(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

function startCli(args: string[], env: Record<string, string> = {}): { child: ChildProcess; url: Promise<string>; token: Promise<string>; exit: Promise<number | null> } {
  const child = spawn(TSX, ['src/testing/mock-cli.ts', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, SEAMSCOPE_MOCK_CONTROL_TOKEN: '', ...env } });
  started.push(child);
  let out = '';
  const url = new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', () => reject(new Error(`mock-cli exited before listening:\n${out}`)));
  });
  const token = new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', () => {
      const match = /Control token \(header x-mock-control-token\): (\S+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', () => reject(new Error(`mock-cli exited before printing its control token:\n${out}`)));
  });
  token.catch(() => undefined);
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, url, token, exit };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('npm run mock (mock-cli)', () => {
  it('prints its URL, serves, and exits 0 on SIGTERM', async () => {
    const { child, url, exit } = startCli(['--port', '0']);
    const base = await url;
    const res = await fetch(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(200);
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
  });

  it('prints a random control token per start, and takes one from --control-token or the environment', async () => {
    const a = startCli(['--port', '0']);
    const b = startCli(['--port', '0']);
    const [tokenA, tokenB] = await Promise.all([a.token, b.token]);
    expect(tokenA).toMatch(/^[A-Za-z0-9_-]{24,}$/);
    expect(tokenA).not.toBe(tokenB);
    const base = await a.url;
    expect((await fetch(`${base}/__mock/health`)).status).toBe(401);
    expect((await fetch(`${base}/__mock/health`, { headers: { 'x-mock-control-token': tokenB } })).status).toBe(401);
    expect((await fetch(`${base}/__mock/health`, { headers: { 'x-mock-control-token': tokenA } })).status).toBe(200);
    const given = startCli(['--port', '0', '--control-token', 'from-the-flag-123']);
    const fromEnv = startCli(['--port', '0'], { SEAMSCOPE_MOCK_CONTROL_TOKEN: 'from-the-env-456' });
    expect(await given.token).toBe('from-the-flag-123');
    expect(await fromEnv.token).toBe('from-the-env-456');
    expect((await fetch(`${await fromEnv.url}/__mock/health`, { headers: { 'x-mock-control-token': 'from-the-env-456' } })).status).toBe(200);
    for (const p of [a, b, given, fromEnv]) p.child.kill('SIGTERM');
    expect(await Promise.all([a.exit, b.exit, given.exit, fromEnv.exit])).toEqual([0, 0, 0, 0]);
  });

  it('requires the key given with --api-key', async () => {
    const { child, url, exit } = startCli(['--port', '0', '--api-key', 'sk-cli']);
    const res = await fetch(`${await url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(401);
    child.kill('SIGINT');
    expect(await exit).toBe(0);
  });

  it('exits by itself after --idle-exit', async () => {
    const { url, exit } = startCli(['--port', '0', '--idle-exit', '100']);
    await fetch(`${await url}/v1/models`);
    expect(await exit).toBe(0);
  });

  it('exits when the process that started it is killed', async () => {
    // An intermediate parent, SIGKILLed so it cannot pass anything on: the mock must notice.
    const launcher = spawn(
      process.execPath,
      ['-e', `const c = require('node:child_process').spawn(${JSON.stringify(TSX)}, ['src/testing/mock-cli.ts', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] }); c.stdout.on('data', (d) => { if (String(d).includes('listening')) console.log('PID ' + c.pid); });`],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    started.push(launcher);
    const pid = await new Promise<number>((resolve) => {
      let out = '';
      launcher.stdout?.on('data', (d: Buffer) => {
        out += d.toString();
        const match = /PID (\d+)/.exec(out);
        if (match?.[1]) resolve(Number(match[1]));
      });
    });
    expect(isAlive(pid)).toBe(true);
    launcher.kill('SIGKILL');
    while (isAlive(pid)) await new Promise((r) => setTimeout(r, 100));
    expect(isAlive(pid)).toBe(false);
  });
});
