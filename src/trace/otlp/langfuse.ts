import { hashString } from '../../chain/hash.ts';
import { isRecord, propertyOf, prototypeFreeRecord } from '../../files/json-value.ts';
import type { StepRegistry } from '../../steps/index.ts';
import type { LlmCall } from './conventions.ts';
import { parseJsonValue } from './guard.ts';
import { importGeneric, listNames, silentOutputWarning, type FoundCall, type ImportOtlpResult } from './import.ts';
import { readLangfuseExport, type LangfuseObservation } from './langfuse-read.ts';
import { finishFromRecorded, hasContent, toolCallOutput } from './messages.ts';
import type { FlatSpan } from './spans.ts';
import { langfuseSettingsOf } from './request-settings.ts';
import { vendorMessages, vendorOutput } from './vendor-shapes.ts';

/**
 * Imports a Langfuse trace export (`{trace, observations}`) into a run the replay view can
 * show, as the OTLP import does: one model step per GENERATION, in time order, on a
 * synthetic chain. The original span attributes are gone from such an export, so this reads
 * Langfuse's own observation shape: `input`/`output` (request and reply bodies of whichever
 * SDK recorded them, often as JSON text), `model`, `modelParameters`, `usageDetails`,
 * `costDetails`, `level`/`statusMessage` and the times. Pure and never throws.
 *
 * @example
 * const result = importLangfuseExport(await file.text(), stepRegistry);
 */

/** Langfuse stores bodies either as JSON values or as their JSON text. */
const bodyOf = (value: unknown): unknown => (typeof value === 'string' ? parseJsonValue(value) ?? value : value);

const numberOf = (value: unknown): number | undefined => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() ? Number(value) : NaN;
  return Number.isFinite(n) ? n : undefined;
};

function firstNumber(record: Record<string, unknown> | null | undefined, ...keys: string[]): number | undefined {
  for (const key of keys) {
    const n = record && Object.hasOwn(record, key) ? numberOf(record[key]) : undefined;
    if (n !== undefined) return n;
  }
  return undefined;
}

/** Usage as Langfuse normalises it (`input`, `output`, and provider-specific detail keys). */
function usageOf(o: LangfuseObservation): LlmCall['usage'] {
  const u = o.usageDetails;
  const inputTokens = firstNumber(u, 'input', 'prompt_tokens', 'input_tokens');
  const outputTokens = firstNumber(u, 'output', 'completion_tokens', 'output_tokens');
  if (inputTokens === undefined && outputTokens === undefined) return undefined;
  const cached = firstNumber(u, 'prompt_details.cache_read', 'input_cached_tokens', 'cache_read_input_tokens', 'input_cache_read', 'cached_tokens');
  const reasoning = firstNumber(u, 'completion_details.reasoning', 'output_reasoning_tokens', 'reasoning_tokens', 'output_reasoning');
  return { inputTokens: inputTokens ?? 0, outputTokens: outputTokens ?? 0, ...(cached !== undefined ? { cachedInputTokens: cached } : {}), ...(reasoning !== undefined ? { reasoningTokens: reasoning } : {}) };
}

/** One GENERATION observation → the LLM call it recorded. */
function callOf(o: LangfuseObservation): LlmCall {
  const notes = new Set<string>();
  const params = o.modelParameters ?? {};
  const input = bodyOf(o.input);
  const output = bodyOf(o.output);
  let messages = vendorMessages(input, notes) ?? [];
  // The Responses API and the Agents SDK keep the system prompt as `instructions`, beside the input.
  const instructions = params.instructions ?? (isRecord(output) ? output.instructions : undefined);
  if (typeof instructions === 'string' && instructions && messages[0]?.role !== 'system') messages = [{ role: 'system', content: instructions }, ...messages];
  const read = vendorOutput(output, notes);
  const out = hasContent(read) ? read : null;
  const rawFinish = out?.finish ?? (typeof params.finishReason === 'string' ? params.finishReason : undefined);
  const maxTokens = firstNumber(params, 'maxTokens', 'max_tokens', 'max_output_tokens', 'max_completion_tokens', 'maxOutputTokens');
  const temperature = firstNumber(params, 'temperature');
  const cost = numberOf(o.costDetails?.total) ?? numberOf(o.totalCost);
  const usage = usageOf(o);
  const toolCalls = out?.toolCalls ?? [];
  const text = out?.text;
  const model = o.model ?? (typeof params.model === 'string' ? params.model : undefined);
  // The original span attributes survive, when at all, inside `metadata.attributes`.
  const attributes = propertyOf(bodyOf(o.metadata), 'attributes');
  const request = langfuseSettingsOf(params);
  const provider = [params.system, propertyOf(attributes, 'gen_ai.provider.name'), propertyOf(attributes, 'gen_ai.system')].find((v): v is string => typeof v === 'string' && v !== '');
  return {
    conventions: ['langfuse'],
    ...(provider ? { provider } : {}),
    ...(model ? { model } : {}),
    messages,
    ...(text !== undefined ? { text, output: text === '' && toolCalls.length ? toolCalls.map(toolCallOutput) : text } : {}),
    ...(toolCalls.length ? { toolCalls } : {}),
    ...(out?.reasoning ? { reasoning: out.reasoning } : {}),
    structured: false,
    ...(rawFinish !== undefined ? { finishReason: finishFromRecorded(rawFinish), rawFinishReason: rawFinish } : {}),
    ...(usage ? { usage } : {}),
    ...(maxTokens !== undefined && Number.isInteger(maxTokens) && maxTokens > 0 ? { maxTokens } : {}),
    ...(temperature !== undefined ? { temperature } : {}),
    ...(cost !== undefined && cost > 0 ? { costUsd: cost } : {}),
    stream: false,
    ...(request ? { request } : {}),
    notes: [...notes],
  };
}

/** An observation as the span-like record the shared import stages read (times, status, name). */
function spanOf(o: LangfuseObservation, traceId: string, traceName: string, order: number): FlatSpan {
  const startMs = Date.parse(o.startTime);
  const error = o.level === 'ERROR';
  return {
    key: o.id, traceId, spanId: o.id, parentKey: o.parentObservationId ?? null, name: o.name || o.type.toLowerCase(),
    startMs, endMs: Math.max(startMs, o.endTime ? Date.parse(o.endTime) : startMs),
    // The observation type says what it did (agent, tool, retriever…): the span tree shows it.
    attrs: Object.assign(prototypeFreeRecord(), { 'langfuse.observation.type': o.type }), events: [],
    status: { code: error ? 2 : 0, ...(error ? { message: o.statusMessage || 'the observation has level ERROR' } : {}) },
    resource: { 'service.name': traceName }, order,
  };
}

/** Ancestor ids nearest first (at most 256); none when the links loop, as the OTLP import treats them. */
function ancestors(id: string, byId: ReadonlyMap<string, LangfuseObservation>): string[] {
  const seen = new Set([id]);
  const chain: string[] = [];
  for (let p = byId.get(id)?.parentObservationId; p && chain.length < 256; p = byId.get(p)?.parentObservationId) {
    if (seen.has(p)) return [];
    seen.add(p);
    chain.push(p);
  }
  return chain;
}

function importUnchecked(text: string, registry: StepRegistry): ImportOtlpResult {
  const read = readLangfuseExport(text);
  if (!read.ok) return read;
  const { trace, observations } = read.data;
  if (observations.length === 0) return { ok: false, message: 'the Langfuse export holds no observations' };
  const spans = observations.map((o, i) => spanOf(o, trace.id, trace.name ?? '', i));
  const byId = new Map(observations.map((o) => [o.id, o]));
  // A generation with a generation inside it (Vercel's ai.generateText around its doGenerate) is one call.
  const generationIds = new Set(observations.filter((o) => o.type === 'GENERATION').map((o) => o.id));
  const wrappers = new Set<string>();
  for (const id of generationIds) for (const p of ancestors(id, byId)) if (generationIds.has(p)) wrappers.add(p);
  const warnings: string[] = [];
  const calls: FoundCall[] = observations.flatMap((o, i) => (generationIds.has(o.id) && !wrappers.has(o.id) ? [{ span: spans[i] as FlatSpan, call: callOf(o), name: o.name || 'generation' }] : []))
    .sort((a, b) => a.span.startMs - b.span.startMs || a.span.endMs - b.span.endMs || a.span.order - b.span.order);
  if (calls.length === 0) {
    return { ok: false, message: `no generations found: none of the ${observations.length} observation(s) (${listNames(spans.map((s) => s.name))}) is of type GENERATION` };
  }
  if (wrappers.size > 0) warnings.push(`${wrappers.size} generation(s) wrapping another generation were merged into the inner one`);
  const skipped = observations.filter((o) => !generationIds.has(o.id));
  if (skipped.length > 0) warnings.push(`${skipped.length} observation(s) that are not generations made no step (they are in the span tree): ${listNames(skipped.map((o) => `${o.name || '?'} (${o.type})`))}`);
  const silent = silentOutputWarning(calls, 'generation(s)', 'their output is empty or in a shape this import does not know');
  if (silent) warnings.push(silent);
  const notes = [...new Set(calls.flatMap((c) => c.call.notes))];
  if (notes.length > 0) warnings.push(`Seamscope messages are plain text, so: ${notes.join('; ')}`);
  return importGeneric(spans, calls, `langfuse-${hashString(text)}`, warnings, registry, 'a Langfuse trace export');
}

export function importLangfuseExport(text: string, registry: StepRegistry): ImportOtlpResult {
  try {
    return importUnchecked(text, registry);
  } catch (error) {
    return { ok: false, message: `the Langfuse export could not be imported: ${(error as Error)?.message ?? String(error)}` };
  }
}
