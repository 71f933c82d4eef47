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
  /** Closes the clients this backend made (after the queues, workers and listeners are closed). */
  close(): Promise<void>;
}

const streams = (opts?: { eventsMaxLen?: number }) => (opts?.eventsMaxLen ? { streams: { events: { maxLen: opts.eventsMaxLen } } } : {});

export async function openBackend(target: QueueTarget, env: Readonly<Record<string, string | undefined>> = {}): Promise<QueueBackend> {
  if (target.kind === 'redis') {
    // A worker's blocking reads need maxRetriesPerRequest: null (BullMQ refuses otherwise).
    const connection = new Redis({
      host: target.host, port: target.port, db: target.db, maxRetriesPerRequest: null, lazyConnect: false,
      ...(env.SEAMSCOPE_QUEUE_PASSWORD ? { password: env.SEAMSCOPE_QUEUE_PASSWORD } : {}),
    });
    // ioredis reconnects by itself; without a listener an unreachable server would throw on the process.
    connection.on('error', () => undefined);
    return {
      target,
      queue: (name, opts) => new Queue(name, { connection, ...streams(opts) }),
      worker: (name, processor, opts) => new Worker(name, processor, { ...opts, connection }),
      events: (name) => new QueueEvents(name, { connection }),
      async close() {
        // QUIT waits for an answer a server that went away never sends.
        if (connection.status === 'ready') await connection.quit().catch(() => connection.disconnect());
        else connection.disconnect();
      },
    };
  }
  // BullMQ's SQL names its functions unqualified: a pool it did not create must put its schema
  // on the search path itself.
  const pool = new pg.Pool({ connectionString: target.connectionString, max: 10, options: `-c search_path=${DEFAULT_SCHEMA},public` });
  pool.on('error', () => undefined);
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
    queue: (name, opts) => new classes.Queue(name, { connection: pool, ...streams(opts) }) as unknown as Queue,
    worker: (name, processor, opts) => new classes.Worker(name, processor as never, { ...opts, connection: pool }) as unknown as Worker,
    events: (name) => new classes.QueueEvents(name, { connection: pool }) as unknown as QueueEvents,
    async close() {
      await pool.end().catch(() => undefined);
    },
  };
}
