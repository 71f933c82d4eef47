import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmod, chown, mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.ts';

/**
 * Debian's PostgreSQL 15 (/usr/lib/postgresql/15/bin), started the way a user would for the
 * PostgreSQL batch test: `initdb` into a temporary folder, `postgres` on 127.0.0.1 and a
 * private port, trust authentication for local connections only, no fsync (a test's data is
 * thrown away), and stopped by `stop()` or with the test process. PostgreSQL refuses to run as
 * root, so as root it runs as the `postgres` user the Debian package creates.
 */
export interface PostgresServer {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  readonly url: string;
  /** The postmaster's process id: its sessions are its children (bench:batch reads their CPU time). */
  readonly pid: number;
  /** Every row of every table, as pg_dump writes it (what anyone with access to the database can read). */
  dumpData(): string;
  stop(): Promise<void>;
}

export const PG_BIN = process.env.SEAMSCOPE_PG_BIN ?? '/usr/lib/postgresql/15/bin';
export const POSTGRES_MISSING = `PostgreSQL 15 is not installed at ${PG_BIN} (apt-get install postgresql-15; .ci/run installs it)`;

function postgresUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const id = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  return id.status === 0 && gid.status === 0 ? { uid: Number(id.stdout.trim()), gid: Number(gid.stdout.trim()) } : null;
}

export function postgresAvailable(): boolean {
  return existsSync(join(PG_BIN, 'initdb')) && existsSync(join(PG_BIN, 'postgres')) && (process.getuid?.() !== 0 || postgresUser() !== null);
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * What the server runs with unless told otherwise: nothing flushed to disk (a test's data is
 * thrown away). `settings` replace or add to these (`-c name=value`), e.g. `fsync: 'on'` for a
 * durable server.
 */
export const THROWAWAY_SETTINGS: Readonly<Record<string, string>> = { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' };

export async function startPostgresServer(opts: { settings?: Readonly<Record<string, string>> } = {}): Promise<PostgresServer> {
  if (!postgresAvailable()) throw new Error(POSTGRES_MISSING);
  const user = postgresUser();
  const dir = await mkdtemp(join(tmpdir(), 'seamscope-pg-'));
  const data = join(dir, 'data');
  if (user) await chown(dir, user.uid, user.gid);
  await chmod(dir, 0o700);
  const as = user ? { uid: user.uid, gid: user.gid } : {};
  const init = spawnSync(join(PG_BIN, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C'], { encoding: 'utf8', ...as });
  if (init.status !== 0) {
    await rm(dir, { recursive: true, force: true });
    throw new Error(`initdb failed: ${init.stderr}`);
  }
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort();
    const settings = Object.entries({ ...THROWAWAY_SETTINGS, ...opts.settings, logging_collector: 'off' }).flatMap(([name, value]) => ['-c', `${name}=${value}`]);
    const child = spawn(join(PG_BIN, 'postgres'), ['-D', data, '-h', '127.0.0.1', '-p', String(port), '-k', dir, ...settings], { stdio: ['ignore', 'ignore', 'pipe'], ...as });
    running.add(child);
    let text = '';
    child.stderr?.on('data', (d: Buffer) => void (text += d.toString()));
    let gone = false;
    const exited = new Promise<void>((resolve) => child.once('exit', () => {
      gone = true;
      running.delete(child);
      resolve();
    }));
    for (let i = 0; !gone && i < 400; i++) {
      if (/database system is ready to accept connections/.test(text)) {
        return {
          url: `postgres://postgres@127.0.0.1:${port}/postgres`,
          pid: child.pid ?? 0,
          dumpData: () => spawnSync(join(PG_BIN, 'pg_dump'), ['--data-only', '-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', 'postgres'], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, ...as }).stdout,
          async stop() {
            // SIGINT: PostgreSQL's fast shutdown (disconnects clients, then stops).
            if (!gone) child.kill('SIGINT');
            await exited;
            await rm(dir, { recursive: true, force: true });
          },
        };
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    if (!gone) child.kill('SIGKILL');
    await exited;
  }
  await rm(dir, { recursive: true, force: true });
  throw new Error('postgres did not start on 127.0.0.1 (five ports tried)');
}
