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

function startCli(args: string[]): { child: ChildProcess; url: Promise<string>; exit: Promise<number | null> } {
  const child = spawn(TSX, ['src/testing/mock-cli.ts', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
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
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, url, exit };
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
    await fetch(`${await url}/__mock/health`);
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
