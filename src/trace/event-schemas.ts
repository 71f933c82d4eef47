import * as z from 'zod';
import type { AttemptRecord, BoundaryLabel, RunMeta, TraceEvent } from './events.ts';
import { MAX_TREE_SPANS } from './span-tree.ts';

/**
 * The trace's shapes as zod schemas: a run read back from a file or the database is checked
 * event by event before anything replays it, so a damaged or hand-edited trace is refused with
 * the path of its bad field instead of breaking a view later. The TypeScript types in
 * events.ts stay the readable definition; event-schemas.test.ts checks these schemas infer
 * exactly those types, so the two cannot drift. Unknown extra fields are kept (loose), as a
 * newer Seamscope may add some, and dropping data on read would lose it on the next write.
 */

const count = z.number().int().nonnegative();
const time = z.number().finite();
const usage = z.object({
  inputTokens: z.number(), outputTokens: z.number(), cachedInputTokens: z.number().optional(), reasoningTokens: z.number().optional(),
}).loose();
const toolCall = z.object({ id: z.string(), name: z.string(), arguments: z.string() }).loose();
const failure = z.object({ code: z.string(), message: z.string() }).loose();
const runStatus = z.enum(['running', 'succeeded', 'failed', 'abstained', 'escalated', 'interrupted', 'cancelled']);
const stepStatus = z.enum(['succeeded', 'failed', 'skipped', 'abstained', 'escalated']);

const segment = z.object({ kind: z.string(), text: z.string(), tokens: z.number(), untrusted: z.boolean().optional() }).loose();
const truncation = z.object({
  binding: z.string(), from: z.enum(['end', 'start']), budget: z.number(), totalBefore: z.number(), totalAfter: z.number(),
  bindingTokensBefore: z.number(), bindingTokensKept: z.number(), cutText: z.string(),
}).loose();

/** What a rerun sent of a recorded request and what not (AttemptRecord.asRecorded). */
export const rerunFidelitySchema = z.object({ sent: z.array(z.string()), notSent: z.array(z.string()), added: z.array(z.string()), settingsRecorded: z.boolean() });

export const attemptRecordSchema = z.object({
  messages: z.array(z.object({ role: z.enum(['system', 'user', 'assistant']), content: z.string() }).loose()),
  segments: z.array(segment),
  params: z.object({ model: z.string(), maxTokens: z.number(), temperature: z.number().optional(), structured: z.boolean(), stream: z.boolean() }).loose(),
  requestBody: z.unknown().optional(),
  recordedRequest: z.record(z.string(), z.unknown()).optional(),
  asRecorded: rerunFidelitySchema.loose().optional(),
  rawResponse: z.unknown().optional(),
  text: z.string().optional(),
  finishReason: z.enum(['stop', 'length', 'refusal', 'content_filter', 'tool_calls', 'other']).optional(),
  rawFinishReason: z.string().nullable().optional(),
  toolCalls: z.array(toolCall).optional(),
  reasoning: z.string().optional(),
  output: z.unknown().optional(),
  errors: z.array(z.string()),
  failure: z.string().optional(),
  feedback: z.string().optional(),
  status: z.number().optional(),
  latencyMs: z.number(),
  usage: usage.optional(),
  costUsd: z.number().optional(),
  truncation: truncation.optional(),
  configHash: z.string(),
}).loose();

/** One schema per event type, keyed by `type` (what a reader can dispatch on). */
export const traceEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('run.started'), at: time, runId: z.string(), chainId: z.string(), chainName: z.string(), chainRevision: z.string(), inputs: z.record(z.string(), z.unknown()), provider: z.string(), model: z.string() }).loose(),
  z.object({ type: z.literal('run.resumed'), at: time, restoredSteps: z.array(z.string()), restoredUnits: count }).loose(),
  z.object({ type: z.literal('step.started'), at: time, stepId: z.string() }).loose(),
  z.object({ type: z.literal('step.attempt'), at: time, stepId: z.string(), attempt: count, record: attemptRecordSchema, unit: z.string().optional() }).loose(),
  z.object({ type: z.literal('step.transport_retry'), at: time, stepId: z.string(), attempt: count, error: z.string(), status: z.number().nullable(), waitMs: z.number() }).loose(),
  z.object({ type: z.literal('step.unit'), at: time, stepId: z.string(), unitId: z.string(), index: count, status: z.enum(['ok', 'error']), output: z.unknown().optional(), error: failure.optional() }).loose(),
  z.object({ type: z.literal('step.check'), at: time, stepId: z.string(), check: z.string(), passed: z.boolean(), problems: z.array(z.string()) }).loose(),
  z.object({ type: z.literal('step.route'), at: time, stepId: z.string(), label: z.string(), chosen: z.array(z.string()) }).loose(),
  z.object({ type: z.literal('step.finished'), at: time, stepId: z.string(), status: stepStatus, output: z.unknown().optional(), failure: failure.optional(), latencyMs: z.number(), fallbackTo: z.string().optional(), reused: z.boolean().optional() }).loose(),
  z.object({ type: z.literal('run.finished'), at: time, status: runStatus, output: z.unknown().optional(), error: z.string().optional(), terminalStep: z.string().optional() }).loose(),
]);

/** A note is a sentence or a paragraph, not a document: the cap keeps a hostile file from bloating every run list. */
export const LABEL_NOTE_MAX = 4000;

export const boundaryLabelSchema = z.object({
  boundaryId: z.string().min(1).max(500),
  producer: z.string().max(500),
  consumer: z.string().max(500),
  verdict: z.enum(['derivable', 'not-derivable', 'unsure']),
  note: z.string().max(LABEL_NOTE_MAX),
  at: time,
}).loose();

const spanNodeSchema = z.object({
  id: z.string().max(600),
  parent: z.string().max(600).nullable(),
  depth: count,
  name: z.string().max(2_000),
  kind: z.enum(['agent', 'chain', 'model', 'tool', 'retrieval', 'span']),
  startMs: z.number(),
  durationMs: z.number().min(0),
  error: z.string().max(10_000).optional(),
  stepId: z.string().max(500).optional(),
  promptTemplate: z.object({
    template: z.string().max(200_000), variables: z.record(z.string().max(200), z.string().max(200_000)), version: z.string().max(200).optional(),
  }).loose().optional(),
}).loose();

export const runMetaSchema = z.object({
  id: z.string(),
  traceVersion: count,
  chainId: z.string(),
  chainName: z.string(),
  chainRevision: z.string(),
  chain: z.unknown(),
  inputs: z.record(z.string(), z.unknown()),
  provider: z.string(),
  model: z.string(),
  profileId: z.string().optional(),
  status: runStatus,
  startedAt: time,
  finishedAt: time.optional(),
  output: z.unknown().optional(),
  error: z.string().optional(),
  usage: usage.extend({ costUsd: z.number().optional() }).optional(),
  forkedFrom: z.object({ runId: z.string(), stepId: z.string(), editedOutput: z.boolean(), reused: z.array(z.string()) }).loose().optional(),
  // One per boundary: a second label for the same boundary is a damaged file, not a revision.
  labels: z.array(boundaryLabelSchema).max(10_000).refine((list) => new Set(list.map((l) => l.boundaryId)).size === list.length, 'two labels for the same boundary').optional(),
  evalId: z.string().max(200).optional(),
  spans: z.array(spanNodeSchema).max(MAX_TREE_SPANS).optional(),
  spansOmitted: count.optional(),
}).loose();

// The schemas infer exactly the types of events.ts, field for field, optional for optional (the
// index signature a loose object adds is stripped first); a drift fails type checking here.
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
type Strip<T> = T extends object ? { [K in keyof T as string extends K ? never : K]: Strip<T[K]> } : T;
export const _typesAgree: [
  Same<Strip<z.infer<typeof traceEventSchema>>, Strip<TraceEvent>>,
  Same<Strip<z.infer<typeof runMetaSchema>>, Strip<RunMeta>>,
  Same<Strip<z.infer<typeof attemptRecordSchema>>, Strip<AttemptRecord>>,
  Same<Strip<z.infer<typeof boundaryLabelSchema>>, Strip<BoundaryLabel>>,
] = [true, true, true, true];
