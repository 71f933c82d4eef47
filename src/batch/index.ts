/**
 * Batch runs beyond one machine (Node only): an eval's items as BullMQ jobs on Redis or
 * PostgreSQL, workers that run them through the local eval's own code path, results back.
 * The app never imports this area (bullmq, ioredis and pg are Node libraries).
 *
 * @example
 * import { openBackend, parseQueueUrl, profileKey, runBatch, startBatchWorker } from '../src/batch/index.ts';
 * const parsed = parseQueueUrl('redis://127.0.0.1:6379');
 * if (parsed.ok) {
 *   const backend = await openBackend(parsed.target);
 *   const worker = startBatchWorker({ backend, profileKey: profileKey(profile), provider, model, registry, concurrency: 8 });
 * }
 */
export { openBackend, type QueueBackend } from './backend.ts';
export { CHAINS_QUEUE, chainHash, createChainReader, evalQueueName, profileKey, storeChains } from './chain-store.ts';
export { batchJobOptions, runBatch, type BatchOptions, type BatchSummary } from './coordinator.ts';
export { enqueueInChunks } from './enqueue.ts';
export { JOB_FORMAT, jobDataSchema, jobResultSchema, RESULT_FORMAT, type JobData, type JobResult } from './payload.ts';
export { parseQueueUrl, type QueueTarget, type QueueUrlResult } from './queue-url.ts';
export { batchWorkerOptions, startBatchWorker, type BatchWorker, type BatchWorkerOptions } from './worker.ts';
