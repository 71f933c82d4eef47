import * as z from 'zod';
import type { StageRecall } from '../inspect/stage-recall.ts';

/**
 * One item's result, as a schema: the type every eval path uses is inferred from it, and what
 * is read back from outside the process (a queue worker's result, an earlier run's
 * results.jsonl) is checked against it, so the shape is written once. Bounds are generous for
 * what an eval makes and small enough that a hostile line cannot exhaust the reader.
 */
const text = z.string().max(100_000);
const id = z.string().max(500);

export const scoreResultSchema = z.object({ scorer: z.string().max(2_000), pass: z.boolean(), detail: text }).strict();
export type ScoreResult = z.infer<typeof scoreResultSchema>;

export const stepOutcomeSchema = z.object({
  stepId: z.string().max(200),
  status: z.string().max(50),
  attempts: z.number().int().nonnegative(),
  /** Attempts whose output failed validation (retried or not). */
  invalid: z.number().int().nonnegative(),
  latencyMs: z.number().finite(),
}).strict();
export type StepOutcome = z.infer<typeof stepOutcomeSchema>;

const stageRecallSchema = z.object({
  gold: z.number().int().nonnegative(), k: z.number().int().nonnegative(), output: z.number().min(0).max(1),
  sent: z.number().min(0).max(1).nullable(), lostInPrompt: z.array(id).max(1_000),
}).strict();
// StageRecall belongs to src/inspect (which knows nothing of evals); this keeps the two in step.
const recallMatches: z.ZodType<StageRecall> = stageRecallSchema;

export const itemBoundarySchema = z.object({
  id, producer: z.string().max(200), consumer: z.string().max(200),
  estimate: z.enum(['sufficient', 'insufficient', 'unknown']),
  label: z.string().max(50).optional(),
  /** What the estimate rested on: the item's gold facts, the question's asked facts, or nothing. */
  basis: z.enum(['gold', 'asked', 'none']).optional(),
  /** Recall against the item's gold section and chunk ids, on the stage's output and on the text sent (id stages only). */
  recall: recallMatches.optional(),
}).strict();
export type ItemBoundary = z.infer<typeof itemBoundarySchema>;

export const itemResultSchema = z.object({
  variant: z.string().max(300),
  itemId: z.string().max(200),
  runId: z.string().min(1).max(400),
  status: z.string().max(50),
  pass: z.boolean(),
  abstained: z.boolean(),
  scores: z.array(scoreResultSchema).max(100),
  latencyMs: z.number().finite(),
  inputTokens: z.number().finite().nonnegative(),
  outputTokens: z.number().finite().nonnegative(),
  calls: z.number().int().nonnegative(),
  costUsd: z.number().finite().nonnegative().optional(),
  error: text.optional(),
  steps: z.array(stepOutcomeSchema).max(10_000),
  /** The dataset's word on abstaining for this item (`expected.abstain`), for abstention calibration. */
  expectedAbstain: z.boolean().optional(),
  /** What the judges cost for this item, apart from the variant's own calls. */
  judge: z.object({ calls: z.number().int().nonnegative(), inputTokens: z.number().finite().nonnegative(), outputTokens: z.number().finite().nonnegative(), costUsd: z.number().finite().nonnegative().optional() }).strict().optional(),
  /** Each boundary's sufficiency in this run: estimated (on the item's gold facts when it has them) and labelled. */
  boundaries: z.array(itemBoundarySchema).max(10_000),
}).strict();
export type ItemResult = z.infer<typeof itemResultSchema>;
