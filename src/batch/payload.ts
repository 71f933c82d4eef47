import * as z from 'zod';
import { datasetItemSchema } from '../eval/dataset.ts';
import { scorerSpecSchema } from '../eval/scorer-spec.ts';
import { itemResultSchema, type ItemResult } from '../eval/item-result.ts';

/**
 * What crosses the queue, both ways. Redis (or PostgreSQL) is shared with whoever else can
 * reach it, so neither side trusts what it reads: a worker checks a job's data before running
 * anything, the coordinator checks a result before writing it. No key is ever in either: the
 * chain travels by content hash, the endpoint by its profile key, the key stays in each
 * worker's environment.
 */
export const JOB_FORMAT = 'seamscope.batch-job';
export const RESULT_FORMAT = 'seamscope.batch-result';

/** Ids that become BullMQ job ids and file names: no ':' (BullMQ refuses it), no path characters. */
const safeId = z.string().min(1).max(400).regex(/^[A-Za-z0-9._-]+$/, 'letters, digits, ".", "_" and "-" only');
const hash = z.string().regex(/^[0-9a-f]{14}$/, 'a chain content hash (14 hex digits)');

export const jobDataSchema = z.object({
  format: z.literal(JOB_FORMAT),
  version: z.literal(1),
  batchId: safeId,
  /** The endpoint profile the coordinator meant (its queue's name says it too). */
  profileKey: hash,
  runId: safeId,
  variant: z.object({
    name: z.string().min(1).max(300),
    kind: z.enum(['chain', 'baseline', 'identity', 'ablation']),
    step: z.string().max(200).optional(),
    differs: z.string().max(2_000).optional(),
    chainHash: hash,
  }).strict(),
  item: datasetItemSchema,
  /** Inputs left out of `item.inputs` because they are long: input name → hash of the text stored once per batch. */
  inputTexts: z.record(z.string().min(1).max(200), hash).optional(),
  /** Already chosen by the coordinator (command line, else the dataset's); absent: the item's expected keys choose. */
  scorers: z.array(scorerSpecSchema).max(50).optional(),
}).strict();
export type JobData = z.infer<typeof jobDataSchema>;

export const jobResultSchema = z.object({
  format: z.literal(RESULT_FORMAT),
  version: z.literal(1),
  result: itemResultSchema,
  /** The run file exactly as `eval` writes it under runs/ (checked again with parseRunFile). */
  runFile: z.string().max(64 * 1024 * 1024),
  /** How many times the job had been started when this run finished (BullMQ's attemptsStarted): more than 1 is a restart. */
  started: z.number().int().min(1).max(1_000_000).optional(),
}).strict();
export interface JobResult { format: typeof RESULT_FORMAT; version: 1; result: ItemResult; runFile: string; started?: number }
