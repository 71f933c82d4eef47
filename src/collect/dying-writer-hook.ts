import { parentPort } from 'node:worker_threads';
import type { FinishRequest } from './finish-worker.ts';

/**
 * Tests only, with dying-finish-worker.ts: a writer thread's first listener, which ends the
 * thread as it takes a trace whose id starts with `dead`, before the real writer (whose
 * listener is registered after this one) begins it, as a thread that runs out of memory or
 * meets a bug would.
 */
parentPort?.on('message', (message: FinishRequest) => {
  if (message.jobs.some((job) => job.traceId.startsWith('dead'))) process.exit(70);
});
