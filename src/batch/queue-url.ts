/**
 * `--queue URL`: where the batch's jobs live. `redis://HOST:PORT[/DB]` is BullMQ on Redis;
 * `postgres://[USER@]HOST[:PORT]/DB` is BullMQ's PostgreSQL backend (bullmq 6.7 ships one).
 * Passwords are never taken from the URL (it is an argument: shown by `ps`, kept in shell
 * history and logs): Redis reads SEAMSCOPE_QUEUE_PASSWORD, PostgreSQL its own PGPASSWORD.
 */
export type QueueTarget =
  | { kind: 'redis'; host: string; port: number; db: number; display: string }
  | { kind: 'postgres'; connectionString: string; display: string };

export type QueueUrlResult = { ok: true; target: QueueTarget } | { ok: false; message: string };

const USAGE = 'redis://HOST:PORT[/DB] or postgres://[USER@]HOST[:PORT]/DATABASE';

export function parseQueueUrl(raw: string): QueueUrlResult {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, message: `--queue needs ${USAGE}, got "${raw}"` };
  }
  if (url.password) return { ok: false, message: '--queue has a password in it; give it in SEAMSCOPE_QUEUE_PASSWORD (Redis) or PGPASSWORD (PostgreSQL) instead' };
  if (url.search || url.hash) return { ok: false, message: `--queue takes no ?query or #fragment: ${USAGE}` };
  if (url.protocol === 'redis:') {
    if (url.username) return { ok: false, message: '--queue: a Redis user name is not supported; use SEAMSCOPE_QUEUE_PASSWORD for AUTH' };
    const port = url.port ? Number(url.port) : 6379;
    const path = url.pathname.replace(/^\//, '');
    const db = path === '' ? 0 : Number(path);
    if (!url.hostname || !Number.isInteger(db) || db < 0 || db > 15 || !/^\d*$/.test(path)) return { ok: false, message: `--queue needs ${USAGE}, got "${raw}"` };
    return { ok: true, target: { kind: 'redis', host: url.hostname.replace(/^\[|\]$/g, ''), port, db, display: `redis://${url.host}/${db}` } };
  }
  if (url.protocol === 'postgres:' || url.protocol === 'postgresql:') {
    const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
    if (!url.hostname || !database || database.includes('/')) return { ok: false, message: `--queue needs ${USAGE}, got "${raw}"` };
    return { ok: true, target: { kind: 'postgres', connectionString: url.href, display: url.href } };
  }
  return { ok: false, message: `--queue needs ${USAGE}, got "${raw}"` };
}
