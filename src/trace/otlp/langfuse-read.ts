import * as z from 'zod';
import { isRecord } from '../../files/json-value.ts';
import { issuesText, readTraceJson } from './guard.ts';

/**
 * The gate for Langfuse trace exports (`{trace, observations}`, what the public API's
 * GET /api/public/traces/{id} returns): the same size, depth and `__proto__` limits as an OTLP
 * file, then a schema of only the fields the import reads, whose messages name the place,
 * e.g. `observations[3].startTime must be an ISO date-time`. Everything else is ignored.
 */
export const MAX_OBSERVATIONS = 10_000;

const isoTime = z.string().refine((s) => s.length <= 40 && Number.isFinite(Date.parse(s)), 'must be an ISO date-time');
const optionalText = z.string().nullish();
const numberLike = z.union([z.number(), z.string()]).nullish();

const observation = z.object({
  id: z.string().min(1).max(200),
  type: z.string().max(40),
  name: optionalText,
  parentObservationId: optionalText,
  startTime: isoTime,
  endTime: isoTime.nullish(),
  level: optionalText,
  statusMessage: optionalText,
  model: optionalText,
  modelParameters: z.record(z.string(), z.unknown()).nullish(),
  input: z.unknown().optional(),
  output: z.unknown().optional(),
  usageDetails: z.record(z.string(), numberLike).nullish(),
  costDetails: z.record(z.string(), numberLike).nullish(),
  totalCost: numberLike,
  metadata: z.unknown().optional(),
}).loose();

const exportSchema = z.object({
  trace: z.object({ id: z.string().min(1).max(200), name: optionalText, timestamp: isoTime.nullish() }).loose(),
  observations: z.array(observation).max(MAX_OBSERVATIONS, `must hold at most ${MAX_OBSERVATIONS} observations`),
}).loose();

export type LangfuseObservation = z.infer<typeof observation>;
export type LangfuseExport = z.infer<typeof exportSchema>;

/** Whether a parsed JSON value has the two top-level keys of a Langfuse trace export. */
export function looksLikeLangfuse(value: unknown): boolean {
  return isRecord(value) && 'trace' in value && 'observations' in value;
}

export type ReadLangfuseResult = { ok: true; data: LangfuseExport } | { ok: false; message: string };

/** Text → a structurally valid Langfuse export, or one plain message. Never throws. */
export function readLangfuseExport(text: string): ReadLangfuseResult {
  const read = readTraceJson(text);
  if (!read.ok) return read;
  if (!looksLikeLangfuse(read.value)) return { ok: false, message: 'this is not a Langfuse trace export: it needs top-level "trace" and "observations" keys' };
  const parsed = exportSchema.safeParse(read.value);
  if (!parsed.success) return { ok: false, message: issuesText('the Langfuse export is malformed', parsed.error.issues) };
  return { ok: true, data: parsed.data };
}
