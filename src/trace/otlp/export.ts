import type { Chain } from '../../chain/schema.ts';
import { TRACE_VERSION, type AttemptRecord, type RunMeta, type RunStatus, type StepStatus, type TraceEvent } from '../events.ts';
import { spanIdFor, traceIdFor } from './ids.ts';
import { toGenAiFinish, toGenAiInput } from './messages.ts';
import { GENAI_SETTING_ATTRIBUTES, settingsForExport } from './request-settings.ts';
import { attributes, msToNanos, SPAN_KIND, STATUS, type AttrValue, type OtlpEvent, type OtlpSpan, type OtlpStatus, type OtlpTraceData } from './otlp-json.ts';

/**
 * A run as OTLP/JSON with the OpenTelemetry GenAI conventions, so any OTel backend shows it:
 * an `invoke_workflow {chain}` span for the run, a `step {id}` span per step and a
 * `chat {model}` client span per model attempt carrying the exact messages and the outcome.
 * What GenAI has no key for (attempt number, failure code, validation errors, feedback,
 * config hash, truncation, segments, step outputs, the chain) goes in `seamscope.*` keys,
 * which also lets Seamscope re-import its own export losslessly. Request and response
 * bodies are deliberately not exported: they add size and nothing a viewer needs.
 */
export const OTLP_SCOPE = { name: 'seamscope', version: String(TRACE_VERSION) };

type StepEvent = Extract<TraceEvent, { stepId: string }>;
type AttemptEvent = Extract<TraceEvent, { type: 'step.attempt' }>;
type FinishedEvent = Extract<TraceEvent, { type: 'step.finished' }>;

const DOUBLES = new Set(['gen_ai.request.temperature', 'gen_ai.request.top_p', 'gen_ai.request.frequency_penalty', 'gen_ai.request.presence_penalty', 'seamscope.cost_usd', 'seamscope.step.latency_ms']);

/** JSON text of a value, or undefined when there is none (or it cannot be serialised). */
function json(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

const okStatus: OtlpStatus = { code: STATUS.ok };
const errorStatus = (message: string): OtlpStatus => ({ code: STATUS.error, message });

function runStatus(status: RunStatus, error: string | undefined): OtlpStatus {
  if (status === 'succeeded') return okStatus;
  if (status === 'running') return { code: STATUS.unset };
  return errorStatus(error ? `${status}: ${error}` : status);
}

function stepStatus(finished: FinishedEvent | undefined): OtlpStatus {
  if (!finished || finished.status === 'skipped') return { code: STATUS.unset };
  if (finished.status === 'succeeded') return okStatus;
  return errorStatus(finished.failure ? `${finished.failure.code}: ${finished.failure.message}` : finished.status);
}

/** Maps Seamscope provider kinds to GenAI provider names; others pass through (the enum is open). */
function providerName(kind: string): string {
  return kind === 'openai-compatible' ? 'openai' : kind;
}

function event(at: number, name: string, attrs: Record<string, AttrValue>): OtlpEvent {
  return { timeUnixNano: msToNanos(at), name, attributes: attributes(attrs) };
}

/** The span events of a step: checks, routes, transport retries and map units. */
function stepSpanEvent(e: StepEvent): OtlpEvent | null {
  switch (e.type) {
    case 'step.check': return event(e.at, 'seamscope.check', { 'seamscope.check.name': e.check, 'seamscope.check.passed': e.passed, 'seamscope.check.problems': e.problems });
    case 'step.route': return event(e.at, 'seamscope.route', { 'seamscope.route.label': e.label, 'seamscope.route.chosen': e.chosen });
    case 'step.transport_retry': return event(e.at, 'seamscope.transport_retry', {
      'seamscope.attempt': e.attempt, 'seamscope.error': e.error, 'http.response.status_code': e.status, 'seamscope.wait_ms': e.waitMs,
    });
    case 'step.unit': return event(e.at, 'seamscope.unit', {
      'seamscope.unit.id': e.unitId, 'seamscope.unit.index': e.index, 'seamscope.unit.status': e.status,
      'seamscope.unit.output': json(e.output), 'seamscope.failure.code': e.error?.code, 'seamscope.failure.message': e.error?.message,
    });
    default: return null;
  }
}

/** One model attempt as a GenAI inference span (`chat {model}`, kind CLIENT). */
function attemptSpan(meta: RunMeta, e: AttemptEvent, ids: { traceId: string; spanId: string; parentSpanId: string }): OtlpSpan {
  const r: AttemptRecord = e.record;
  const { system, input } = toGenAiInput(r.messages);
  const finish = r.finishReason || r.rawFinishReason ? toGenAiFinish(r.finishReason, r.rawFinishReason) : undefined;
  // GenAI output parts: reasoning first (as it was produced), then the text, then each tool call.
  const parts = [
    ...(r.reasoning ? [{ type: 'reasoning', content: r.reasoning }] : []),
    ...(r.text !== undefined && (r.text !== '' || !r.toolCalls?.length) ? [{ type: 'text', content: r.text }] : []),
    ...(r.toolCalls ?? []).map((c) => ({ type: 'tool_call', id: c.id, name: c.name, arguments: c.arguments })),
  ];
  const output = parts.length > 0 ? [{ role: 'assistant', parts, finish_reason: finish ?? 'other' }] : undefined;
  // What the call set besides its messages (output format, tools, sampling): whole for a
  // re-import, whose rerun then sends it again or names it; one setting per GenAI attribute for
  // other viewers, where the convention has one.
  const settings = settingsForExport(r);
  const events: OtlpEvent[] = [];
  if (r.failure === 'provider_error') events.push(event(e.at, 'gen_ai.client.operation.exception', { 'exception.type': r.failure, 'exception.message': r.errors.join('; ') }));
  if (r.feedback) events.push(event(e.at, 'seamscope.retry_with_feedback', { 'seamscope.next_attempt': e.attempt + 1 }));
  return {
    ...ids,
    name: `chat ${r.params.model}`,
    kind: SPAN_KIND.client,
    startTimeUnixNano: msToNanos(e.at - r.latencyMs),
    endTimeUnixNano: msToNanos(e.at),
    attributes: attributes({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': providerName(meta.provider),
      'gen_ai.request.model': r.params.model,
      'gen_ai.request.max_tokens': r.params.maxTokens,
      'gen_ai.request.temperature': r.params.temperature,
      'gen_ai.request.stream': r.params.stream ? true : undefined,
      'gen_ai.output.type': r.params.structured ? 'json' : undefined,
      'gen_ai.response.finish_reasons': finish !== undefined ? [finish] : undefined,
      'gen_ai.usage.input_tokens': r.usage?.inputTokens,
      'gen_ai.usage.output_tokens': r.usage?.outputTokens,
      'gen_ai.usage.cache_read.input_tokens': r.usage?.cachedInputTokens,
      'gen_ai.usage.reasoning.output_tokens': r.usage?.reasoningTokens,
      'gen_ai.system_instructions': system ? json(system) : undefined,
      'gen_ai.input.messages': json(input),
      'gen_ai.output.messages': json(output),
      'error.type': r.failure,
      'http.response.status_code': r.status,
      'seamscope.step.id': e.stepId,
      'seamscope.attempt': e.attempt,
      'seamscope.unit': e.unit,
      'seamscope.output': json(r.output),
      'seamscope.raw_finish_reason': r.rawFinishReason ?? undefined,
      'seamscope.failure': r.failure,
      'seamscope.validation_errors': r.errors.length > 0 ? r.errors : undefined,
      'seamscope.feedback': r.feedback,
      'seamscope.config_hash': r.configHash,
      'seamscope.cost_usd': r.costUsd,
      'seamscope.structured': r.params.structured,
      'seamscope.truncation': json(r.truncation),
      'seamscope.segments': json(r.segments),
      'seamscope.request.settings': json(settings),
      'seamscope.rerun_fidelity': json(r.asRecorded),
      ...genAiSettings(settings),
    }, DOUBLES),
    events,
    status: r.failure ? errorStatus(`${r.failure}: ${r.errors.join('; ')}`) : okStatus,
  };
}

/** The recorded settings the GenAI convention has an attribute for, where the value has the attribute's type. */
function genAiSettings(settings: Record<string, unknown> | undefined): Record<string, AttrValue> {
  const out: Record<string, AttrValue> = {};
  if (!settings) return out;
  for (const [key, attr] of GENAI_SETTING_ATTRIBUTES) {
    const value = settings[key];
    if (key === 'stop') {
      const stops = typeof value === 'string' ? [value] : Array.isArray(value) && value.every((v) => typeof v === 'string') ? value as string[] : undefined;
      if (stops?.length) out[attr] = stops;
    } else if (typeof value === 'number' && Number.isFinite(value)) out[attr] = value;
  }
  if (Array.isArray(settings.tools) && settings.tools.length) out['gen_ai.tool.definitions'] = json(settings.tools);
  return out;
}

interface StepGroup {
  start?: number;
  lastAt: number;
  finished?: FinishedEvent;
  attempts: AttemptEvent[];
  events: OtlpEvent[];
}

/**
 * Exports one run. Deterministic: the same run and events always give the same payload.
 *
 * @example
 * const payload = exportRunToOtlp(run, await repo.getEvents(run.id));
 * download(`${run.id}.otlp.json`, JSON.stringify(payload));
 */
export function exportRunToOtlp(meta: RunMeta, events: readonly TraceEvent[]): OtlpTraceData {
  const traceId = traceIdFor(meta.id);
  const rootId = spanIdFor(meta.id, 'run');
  const chain = (meta.chain && typeof meta.chain === 'object' ? meta.chain : {}) as Partial<Chain>;
  const stepDef = (id: string) => (Array.isArray(chain.steps) ? chain.steps.find((s) => s?.id === id) : undefined);
  const lastAt = events.reduce((max, e) => Math.max(max, e.at), meta.startedAt);
  const runStart = events.find((e) => e.type === 'run.started')?.at ?? meta.startedAt;
  const runFinished = events.find((e): e is Extract<TraceEvent, { type: 'run.finished' }> => e.type === 'run.finished');
  const runEnd = runFinished?.at ?? meta.finishedAt ?? lastAt;

  const groups = new Map<string, StepGroup>();
  const rootEvents: OtlpEvent[] = [];
  for (const e of events) {
    if (e.type === 'run.resumed') rootEvents.push(event(e.at, 'seamscope.run.resumed', { 'seamscope.restored_steps': e.restoredSteps, 'seamscope.restored_units': e.restoredUnits }));
    if (!('stepId' in e)) continue;
    const g = groups.get(e.stepId) ?? { lastAt: e.at, attempts: [], events: [] };
    groups.set(e.stepId, g);
    g.lastAt = Math.max(g.lastAt, e.at);
    if (e.type === 'step.started') g.start ??= e.at;
    else if (e.type === 'step.finished') g.finished = e;
    else if (e.type === 'step.attempt') g.attempts.push(e);
    else { const spanEvent = stepSpanEvent(e); if (spanEvent) g.events.push(spanEvent); }
  }

  const spans: OtlpSpan[] = [{
    traceId, spanId: rootId, name: `invoke_workflow ${meta.chainName}`, kind: SPAN_KIND.internal,
    startTimeUnixNano: msToNanos(runStart), endTimeUnixNano: msToNanos(runEnd),
    attributes: attributes({
      'gen_ai.operation.name': 'invoke_workflow',
      'gen_ai.workflow.name': meta.chainName,
      'error.type': meta.status === 'succeeded' || meta.status === 'running' ? undefined : meta.status,
      'seamscope.trace.version': meta.traceVersion,
      'seamscope.run.id': meta.id,
      'seamscope.run.status': meta.status,
      'seamscope.run.inputs': json(meta.inputs),
      'seamscope.run.output': json(meta.output),
      'seamscope.run.error': meta.error ?? runFinished?.error,
      'seamscope.run.terminal_step': runFinished?.terminalStep,
      'seamscope.run.cost_usd': meta.usage?.costUsd,
      'seamscope.provider': meta.provider,
      'seamscope.model': meta.model,
      'seamscope.chain.id': meta.chainId,
      'seamscope.chain.revision': meta.chainRevision,
      'seamscope.chain': json(meta.chain),
      'seamscope.run.labels': meta.labels?.length ? json(meta.labels) : undefined,
    }, new Set(['seamscope.run.cost_usd'])),
    events: rootEvents,
    status: runStatus(meta.status, meta.error ?? runFinished?.error),
  }];

  const usedIds = new Set([rootId]);
  const uniqueId = (...place: (string | number)[]) => {
    let id = spanIdFor(meta.id, ...place);
    for (let n = 2; usedIds.has(id); n++) id = spanIdFor(meta.id, ...place, n);
    usedIds.add(id);
    return id;
  };
  // Human sufficiency labels, readable in any OTel viewer as events on the producing step's
  // span; the root's `seamscope.run.labels` carries them whole for a lossless re-import.
  for (const label of meta.labels ?? []) {
    groups.get(label.producer)?.events.push(event(label.at, 'seamscope.boundary.label', {
      'seamscope.boundary.id': label.boundaryId, 'seamscope.boundary.consumer': label.consumer,
      'seamscope.sufficiency.verdict': label.verdict, 'seamscope.sufficiency.note': label.note || undefined,
    }));
  }
  for (const [stepId, g] of groups) {
    const def = stepDef(stepId);
    const spanId = uniqueId('step', stepId);
    const f = g.finished;
    const status: StepStatus | 'running' = f?.status ?? 'running';
    spans.push({
      traceId, spanId, parentSpanId: rootId, name: `step ${stepId}`, kind: SPAN_KIND.internal,
      startTimeUnixNano: msToNanos(g.start ?? g.attempts[0]?.at ?? g.lastAt), endTimeUnixNano: msToNanos(f?.at ?? (status === 'running' ? runEnd : g.lastAt)),
      attributes: attributes({
        'seamscope.step.id': stepId,
        'seamscope.step.kind': def?.kind ?? 'unknown',
        'seamscope.step.name': def?.name,
        'seamscope.step.status': status,
        'seamscope.step.output': json(f?.output),
        'seamscope.step.latency_ms': f?.latencyMs,
        'seamscope.step.fallback_to': f?.fallbackTo,
        'seamscope.failure.code': f?.failure?.code,
        'seamscope.failure.message': f?.failure?.message,
        'error.type': f?.failure?.code,
      }, DOUBLES),
      events: g.events,
      status: stepStatus(f),
    });
    for (const a of g.attempts) spans.push(attemptSpan(meta, a, { traceId, spanId: uniqueId('attempt', stepId, a.unit ?? '', a.attempt), parentSpanId: spanId }));
  }

  return {
    resourceSpans: [{
      resource: { attributes: attributes({ 'service.name': 'seamscope' }) },
      scopeSpans: [{ scope: OTLP_SCOPE, spans }],
    }],
  };
}
