import { parentPort } from 'node:worker_threads';
import type { FinishRequest } from './finish-worker.ts';
// The real writer thread first: its listener has begun writing a message's first trace by the time ours runs.
import './finish-worker.ts';

/**
 * Tests only (trace-writer.test.ts passes it to startTraceWriter as `workerEntry`; nothing in
 * the collector or the command names it, and the bundled CLI does not hold it): the writer
 * thread, which ends itself while it writes a trace whose id starts with `dead` (the first
 * trace of a message it receives idle), as a thread that runs out of memory or meets a bug would.
 */
parentPort?.on('message', (message: FinishRequest) => {
  if (message.jobs[0]?.traceId.startsWith('dead')) process.exit(70);
});
