import { createPostgresBackend, DEFAULT_SCHEMA, Queue, QueueEvents, runMigrations, Worker, withBackend, type Processor, type WorkerOptions } from 'bullmq';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { QueueTarget } from './queue-url.ts';

/**
 * BullMQ's classes bound to one store: Redis (ioredis) or BullMQ's PostgreSQL backend (pg).
 * Everything the batch keeps (jobs, results, the chains) goes through BullMQ's own API, so the
 * same code runs on either. Clients are built here and handed to BullMQ as instances: its ESM
 * build cannot `require` the drivers itself.
 */
export interface QueueBackend {
  readonly target: QueueTarget;
  /** `eventsMaxLen`: how many events the queue's event stream keeps (BullMQ's default 10,000). */
  queue(name: string, opts?: { eventsMaxLen?: number }): Queue;
  worker(name: string, processor: Processor, opts: Omit<WorkerOptions, 'connection'>): Worker;
  events(name: string): QueueEvents;
  /** Closes the clients this backend made (after the queues, workers and listeners are closed); their errors are no longer reported. */
  close(): Promise<void>;
}

const streams = (opts?: { eventsMaxLen?: number }) => (opts?.eventsMaxLen ? { streams: { events: { maxLen: opts.eventsMaxLen } } } : {});

export interface BackendOptions {
  /** Where a connection error is reported, one line each (default: stderr). */
  log?(line: string): void;
}

/** An error as one line: its message and, from PostgreSQL, its SQLSTATE (never the client object it carries). */
export function errorLine(error: unknown): string {
  const { message, code } = (error ?? {}) as { message?: unknown; code?: unknown };
  const text = typeof message === 'string' && message ? message : String(error);
  return `${text.replace(/\s+/g, ' ').slice(0, 500)}${typeof code === 'string' && code ? ` (${code})` : ''}`;
}

/**
 * Reports the errors of the clients a backend made, each as one line, until the backend is
 * closed: once it is, its connections ending (or the server's shutdown ending them first, as
 * PostgreSQL's "terminating connection due to administrator command") is expected, not news.
 * A BullMQ queue or listener without an 'error' listener prints the whole error object, a pg
 * client with it, and an 'error' nobody listens to would end the process.
 */
function errorReporter(opts: BackendOptions) {
  const log = opts.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  let closing = false;
  return {
    on: (source: string) => (error: unknown) => {
      if (!closing) log(`queue backend (${source}): ${errorLine(error)}`);
    },
    close: () => void (closing = true),
  };
}

export async function openBackend(target: QueueTarget, env: Readonly<Record<string, string | undefined>> = {}, opts: BackendOptions = {}): Promise<QueueBackend> {
  const errors = errorReporter(opts);
  const watched = <T extends { on(event: 'error', listener: (error: Error) => void): unknown }>(source: string, emitter: T): T => {
    emitter.on('error', errors.on(source));
    return emitter;
  };
  if (target.kind === 'redis') {
    // A worker's blocking reads need maxRetriesPerRequest: null (BullMQ refuses otherwise).
    const connection = new Redis({
      host: target.host, port: target.port, db: target.db, maxRetriesPerRequest: null, lazyConnect: false,
      ...(env.SEAMSCOPE_QUEUE_PASSWORD ? { password: env.SEAMSCOPE_QUEUE_PASSWORD } : {}),
    });
    // ioredis reconnects by itself and reports each failed attempt here; without a listener an
    // unreachable server would throw on the process. The queues and listeners report their own.
    connection.on('error', () => undefined);
    return {
      target,
      queue: (name, opts) => watched(`queue ${name}`, new Queue(name, { connection, ...streams(opts) })),
      worker: (name, processor, opts) => new Worker(name, processor, { ...opts, connection }),
      events: (name) => watched(`events of ${name}`, new QueueEvents(name, { connection })),
      async close() {
        errors.close();
        // QUIT waits for an answer a server that went away never sends.
        if (connection.status === 'ready') await connection.quit().catch(() => connection.disconnect());
        else connection.disconnect();
      },
    };
  }
  // BullMQ's SQL names its functions unqualified: a pool it did not create must put its schema
  // on the search path itself.
  const pool = new pg.Pool({ connectionString: target.connectionString, max: 10, options: `-c search_path=${DEFAULT_SCHEMA},public` });
  // An idle client the server dropped: the pool replaces it on the next query.
  pool.on('error', errors.on('pool'));
  // BullMQ's tables, created or brought up to date under its advisory lock (harmless when
  // another coordinator or worker does the same at once), on one session as it requires.
  const session = await pool.connect();
  try {
    await runMigrations(session, DEFAULT_SCHEMA);
  } catch (error) {
    session.release();
    await pool.end().catch(() => undefined);
    throw error;
  }
  session.release();
  const classes = withBackend(createPostgresBackend);
  return {
    target,
    // The PostgreSQL classes implement the same API as the Redis ones; their types differ only
    // in the backend parameter, which nothing here reads.
    queue: (name, opts) => watched(`queue ${name}`, new classes.Queue(name, { connection: pool, ...streams(opts) }) as unknown as Queue),
    worker: (name, processor, opts) => new classes.Worker(name, processor as never, { ...opts, connection: pool }) as unknown as Worker,
    events: (name) => watched(`events of ${name}`, new classes.QueueEvents(name, { connection: pool }) as unknown as QueueEvents),
    async close() {
      errors.close();
      await pool.end().catch(() => undefined);
    },
  };
}
