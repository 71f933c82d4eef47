import type { JobsOptions, Queue } from 'bullmq';
import type { JobData } from './payload.ts';

/**
 * Adds jobs in chunks. One addBulk is one Redis transaction (or one PostgreSQL transaction):
 * 50,000 jobs at once would hold the server, and every worker waiting on it, for seconds. A
 * chunk at a time, yielding between chunks, lets workers take jobs while the rest are added.
 * A job whose id is already in the queue is not added again, so adding twice is harmless.
 */
export async function enqueueInChunks(
  queue: Pick<Queue, 'addBulk'>, jobs: readonly { name: string; data: JobData; opts: JobsOptions }[], chunkSize: number, signal?: AbortSignal,
): Promise<number> {
  let chunks = 0;
  for (let i = 0; i < jobs.length && !signal?.aborted; i += chunkSize) {
    await queue.addBulk(jobs.slice(i, i + chunkSize) as { name: string; data: JobData; opts: JobsOptions }[]);
    chunks++;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return chunks;
}
