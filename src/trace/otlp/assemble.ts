import type { Chain } from '../../chain/schema.ts';
import type { TokenUsage } from '../../providers/types.ts';
import { TRACE_VERSION, type AttemptRecord, type BoundaryLabel, type RunMeta, type RunStatus, type StepStatus, type TraceEvent } from '../events.ts';
import type { LlmCall } from './conventions.ts';
import type { FlatSpan } from './spans.ts';
import type { SpanNode } from '../span-tree.ts';

/**
 * The last stage of an import: steps read from spans → the run's events and RunMeta, in the
 * same shape the engine records, so `buildRunView` and the rest of the app need no special
 * case for imported runs.
 */
export interface ImportedAttempt {
  attempt: number;
  unit?: string;
  at: number;
  record: AttemptRecord;
}

export interface ImportedStep {
  id: string;
  startMs: number;
  endMs: number;
  status: StepStatus | 'running';
  output?: unknown;
  failure?: { code: string; message: string };
  latencyMs: number;
  fallbackTo?: string;
  attempts: ImportedAttempt[];
  /** Checks, routes, transport retries and units (Seamscope's own exports only). */
  extra: TraceEvent[];
}

export interface ImportedRun {
  id: string;
  chain: Chain;
  chainId: string;
  chainName: string;
  chainRevision: string;
  inputs: Record<string, unknown>;
  provider: string;
  model: string;
  status: RunStatus;
  startedAt: number;
  finishedAt?: number;
  output?: unknown;
  error?: string;
  terminalStep?: string;
  labels?: BoundaryLabel[];
  rootEvents: TraceEvent[];
  /** The trace's span tree (src/trace/span-tree.ts), kept on the run for the replay. */
  spans?: SpanNode[];
  spansOmitted?: number;
}

/** Why an errored span failed, in the words the span gives. */
export function spanError(span: FlatSpan): string | null {
  if (span.status.code !== 2) return null;
  const type = span.attrs['error.type'];
  return span.status.message || (typeof type === 'string' && type) || 'the span ended with an error status';
}

/** One recorded LLM call as an attempt record: the messages exactly as recorded, and the outcome. */
export function recordFromCall(call: LlmCall, span: FlatSpan, configHash: string): AttemptRecord {
  const error = spanError(span);
  return {
    messages: call.messages,
    segments: [],
    params: { model: call.model ?? call.responseModel ?? '', maxTokens: call.maxTokens ?? 0, ...(call.temperature !== undefined ? { temperature: call.temperature } : {}), structured: call.structured, stream: call.stream },
    ...(call.request ? { recordedRequest: call.request } : {}),
    ...(call.text !== undefined ? { text: call.text } : {}),
    ...(call.toolCalls?.length ? { toolCalls: call.toolCalls } : {}),
    ...(call.reasoning ? { reasoning: call.reasoning } : {}),
    ...(call.finishReason ? { finishReason: call.finishReason, rawFinishReason: call.rawFinishReason ?? null } : {}),
    ...(call.output !== undefined && !error ? { output: call.output } : {}),
    errors: error ? [error] : [],
    ...(error ? { failure: 'provider_error' } : {}),
    latencyMs: Math.round((span.endMs - span.startMs) * 1000) / 1000,
    ...(call.usage ? { usage: call.usage } : {}),
    configHash,
  };
}

function sumUsage(steps: readonly ImportedStep[]): (TokenUsage & { costUsd?: number }) | undefined {
  const records = steps.flatMap((s) => s.attempts.map((a) => a.record));
  if (!records.some((r) => r.usage)) return undefined;
  const total: TokenUsage & { costUsd?: number } = { inputTokens: 0, outputTokens: 0 };
  for (const r of records) {
    total.inputTokens += r.usage?.inputTokens ?? 0;
    total.outputTokens += r.usage?.outputTokens ?? 0;
    // The optional counts are summed only over the calls that report them, and stay absent when none does.
    if (r.usage?.cachedInputTokens !== undefined) total.cachedInputTokens = (total.cachedInputTokens ?? 0) + r.usage.cachedInputTokens;
    if (r.usage?.reasoningTokens !== undefined) total.reasoningTokens = (total.reasoningTokens ?? 0) + r.usage.reasoningTokens;
    if (r.costUsd !== undefined) total.costUsd = (total.costUsd ?? 0) + r.costUsd;
  }
  return total;
}

export function assembleRun(run: ImportedRun, steps: readonly ImportedStep[]): { meta: RunMeta; events: TraceEvent[] } {
  const stepEvents: TraceEvent[] = [...run.rootEvents];
  for (const s of steps) {
    stepEvents.push({ type: 'step.started', at: s.startMs, stepId: s.id });
    for (const a of s.attempts) stepEvents.push({ type: 'step.attempt', at: a.at, stepId: s.id, attempt: a.attempt, record: a.record, ...(a.unit !== undefined ? { unit: a.unit } : {}) });
    stepEvents.push(...s.extra);
    if (s.status !== 'running') {
      stepEvents.push({
        type: 'step.finished', at: s.endMs, stepId: s.id, status: s.status, latencyMs: s.latencyMs,
        ...(s.output !== undefined ? { output: s.output } : {}), ...(s.failure ? { failure: s.failure } : {}), ...(s.fallbackTo ? { fallbackTo: s.fallbackTo } : {}),
      });
    }
  }
  // Stable sort: events at the same moment keep their per-step order (started, attempts, finished).
  stepEvents.sort((a, b) => a.at - b.at);
  const events: TraceEvent[] = [
    { type: 'run.started', at: run.startedAt, runId: run.id, chainId: run.chainId, chainName: run.chainName, chainRevision: run.chainRevision, inputs: run.inputs, provider: run.provider, model: run.model },
    ...stepEvents,
  ];
  if (run.status !== 'running') {
    events.push({
      type: 'run.finished', at: run.finishedAt ?? run.startedAt, status: run.status,
      ...(run.output !== undefined ? { output: run.output } : {}), ...(run.error ? { error: run.error } : {}), ...(run.terminalStep ? { terminalStep: run.terminalStep } : {}),
    });
  }
  const usage = sumUsage(steps);
  const meta: RunMeta = {
    id: run.id, traceVersion: TRACE_VERSION, chainId: run.chainId, chainName: run.chainName, chainRevision: run.chainRevision,
    chain: run.chain, inputs: run.inputs, provider: run.provider, model: run.model, status: run.status, startedAt: run.startedAt,
    ...(run.finishedAt !== undefined ? { finishedAt: run.finishedAt } : {}),
    ...(run.output !== undefined ? { output: run.output } : {}),
    ...(run.error ? { error: run.error } : {}),
    ...(usage ? { usage } : {}),
    ...(run.labels?.length ? { labels: run.labels } : {}),
    ...(run.spans?.length ? { spans: run.spans } : {}),
    ...(run.spansOmitted ? { spansOmitted: run.spansOmitted } : {}),
  };
  return { meta, events };
}
