import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { freePort } from './free-port.ts';
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
  /** The server's process id (bench:batch reads its CPU time). */
  readonly pid: number;
  stop(): Promise<void>;
}

/** The redis-server binary on PATH, or null (tests then skip, saying so; CI installs it). */
export function redisServerPath(): string | null {
  const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  const path = found.stdout.trim();
  return found.status === 0 && path ? path : null;
}

export const REDIS_MISSING = 'redis-server is not installed (apt-get install redis-server; .ci/run installs it): the batch tests need a real Redis';


const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export async function startRedisServer(opts: { binary?: string } = {}): Promise<RedisServer> {
  const binary = opts.binary ?? redisServerPath();
  if (!binary) throw new Error(REDIS_MISSING);
  // freePort() and redis-server's bind are two steps: another process may take the port in
  // between. Then this redis-server exits, and we try another port.
  for (let attempt = 0; attempt < 5; attempt++) {
    const started = await startOn(binary, await freePort());
    if (started) return started;
  }
  throw new Error('redis-server did not start on 127.0.0.1 (five ports tried)');
}

async function startOn(binary: string, port: number): Promise<RedisServer | null> {
  const dir = await mkdtemp(join(tmpdir(), 'seamscope-redis-'));
  const log = join(dir, 'redis.log');
  const child = spawn(binary, [
    '--bind', '127.0.0.1', '--port', String(port), '--dir', dir, '--save', '', '--appendonly', 'no',
    '--protected-mode', 'yes', '--daemonize', 'no', '--loglevel', 'notice', '--logfile', log,
  ], { stdio: 'ignore' });
  running.add(child);
  let gone = false;
  const exited = new Promise<void>((resolve) => child.once('exit', () => {
    gone = true;
    running.delete(child);
    resolve();
  }));
  // Ready when its own log says so: something else answering on the port is not our server.
  for (let i = 0; !gone; i++) {
    const text = await readFile(log, 'utf8').catch(() => '');
    if (/Ready to accept connections/.test(text)) {
      return {
        url: `redis://127.0.0.1:${port}`,
        port,
        pid: child.pid ?? 0,
        async stop() {
          if (!gone) child.kill('SIGTERM');
          await exited;
          await rm(dir, { recursive: true, force: true });
        },
      };
    }
    if (i > 400) child.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 25));
  }
  await rm(dir, { recursive: true, force: true });
  return null;
}

/** Every key and value in the Redis on `port`, as text: what anyone who can reach the queue can read. */
export async function redisContents(port: number): Promise<string> {
  const client = new Redis(port, '127.0.0.1');
  const parts: string[] = [];
  let cursor = '0';
  try {
    do {
      const [next, keys] = await client.scan(cursor, 'COUNT', 1000);
      cursor = next;
      for (const key of keys) {
        const type = await client.type(key);
        const value = type === 'string' ? await client.get(key)
          : type === 'hash' ? JSON.stringify(await client.hgetall(key))
          : type === 'list' ? JSON.stringify(await client.lrange(key, 0, -1))
          : type === 'set' ? JSON.stringify(await client.smembers(key))
          : type === 'zset' ? JSON.stringify(await client.zrange(key, 0, -1))
          : type === 'stream' ? JSON.stringify(await client.xrange(key, '-', '+'))
          : '';
        parts.push(key, value ?? '');
      }
    } while (cursor !== '0');
  } finally {
    client.disconnect();
  }
  return parts.join('\n');
}
