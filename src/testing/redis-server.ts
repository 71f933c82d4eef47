import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Debian's `redis-server`, started the way a user would for the batch tests and the bench: on
 * 127.0.0.1, a private port and a temporary data folder, nothing saved to disk, and stopped by
 * `stop()` or, if the test process dies first, with it (the child is killed on exit).
 */
export interface RedisServer {
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

/** The redis-server binary on PATH, or null (tests then skip, saying so; CI installs it). */
export function redisServerPath(): string | null {
  const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  const path = found.stdout.trim();
  return found.status === 0 && path ? path : null;
}

export const REDIS_MISSING = 'redis-server is not installed (apt-get install redis-server; .ci/run installs it): the batch tests need a real Redis';

/** A port nothing listens on right now (Redis cannot pick one itself: it has no port 0). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.end('PING\r\n');
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export async function startRedisServer(opts: { binary?: string } = {}): Promise<RedisServer> {
  const binary = opts.binary ?? redisServerPath();
  if (!binary) throw new Error(REDIS_MISSING);
  const dir = await mkdtemp(join(tmpdir(), 'seamscope-redis-'));
  const port = await freePort();
  const child = spawn(binary, [
    '--bind', '127.0.0.1', '--port', String(port), '--dir', dir, '--save', '', '--appendonly', 'no',
    '--protected-mode', 'yes', '--daemonize', 'no', '--loglevel', 'warning', '--logfile', join(dir, 'redis.log'),
  ], { stdio: 'ignore' });
  running.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let gone = false;
  void exited.then(() => { gone = true; running.delete(child); });
  for (let i = 0; !(await accepts(port)); i++) {
    if (gone || i > 200) {
      child.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
      throw new Error(`redis-server did not start on 127.0.0.1:${port}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      if (!gone) child.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
