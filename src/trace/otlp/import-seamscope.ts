import * as z from 'zod';
import { parseChain } from '../../chain/parse.ts';
import type { Chain } from '../../chain/schema.ts';
import { boundaryLabelSchema, rerunFidelitySchema } from '../event-schemas.ts';
import type { AttemptRecord, BoundaryLabel, RunStatus, TraceEvent } from '../events.ts';
import { mapLlmAttributes, type LlmCall } from './conventions.ts';
import { parseJsonValue } from './guard.ts';
import { recordFromCall, type ImportedAttempt, type ImportedStep } from './assemble.ts';
import { keptSettings } from './request-settings.ts';
import type { FlatSpan } from './spans.ts';
import type { StepRegistry } from '../../steps/index.ts';
import { isRecord } from '../../files/json-value.ts';

/**
 * Seamscope's own exports carry `seamscope.*` keys next to the GenAI ones, so their import
 * restores what GenAI cannot say: attempts grouped under their step, validation errors,
 * feedback, segments, truncation, checks, routes and the chain itself. Every value is
 * re-validated here: a file claiming to be a Seamscope export is still untrusted.
 */
const segmentsSchema = z.array(z.object({ kind: z.string(), text: z.string(), tokens: z.number(), untrusted: z.boolean().optional() }));
const truncationSchema = z.object({
  binding: z.string(), from: z.enum(['end', 'start']), budget: z.number(), totalBefore: z.number(), totalAfter: z.number(),
  bindingTokensBefore: z.number(), bindingTokensKept: z.number(), cutText: z.string(),
});
const stepStatus = z.enum(['succeeded', 'failed', 'skipped', 'abstained', 'escalated', 'running']);
const runStatus = z.enum(['running', 'succeeded', 'failed', 'abstained', 'escalated', 'interrupted', 'cancelled']);
const stringList = z.array(z.string());

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const parsed = <T>(schema: z.ZodType<T>, v: unknown): T | undefined => {
  const r = schema.safeParse(typeof v === 'string' ? parseJsonValue(v) : v);
  return r.success ? r.data : undefined;
};
const jsonOf = (v: unknown) => (typeof v === 'string' ? parseJsonValue(v) : undefined);

/** Sufficiency labels as exported; a damaged list is dropped whole, with a warning, rather than half-kept. */
function importLabels(value: unknown, warnings: string[]): BoundaryLabel[] {
  if (value === undefined) return [];
  const list = parsed(z.array(boundaryLabelSchema), value);
  const unique = list && new Set(list.map((l) => l.boundaryId)).size === list.length;
  if (!list || !unique) {
    warnings.push('the sufficiency labels in the export are not valid; they were not imported');
    return [];
  }
  return list as BoundaryLabel[];
}

/** The root span of a Seamscope export, if this is one. */
export function seamscopeRoot(spans: readonly FlatSpan[]): FlatSpan | undefined {
  return spans.find((s) => typeof s.attrs['seamscope.run.id'] === 'string' && s.attrs['gen_ai.operation.name'] === 'invoke_workflow' && !s.parentKey);
}

function overlay(record: AttemptRecord, a: Record<string, unknown>): AttemptRecord {
  const output = jsonOf(a['seamscope.output']);
  const errors = parsed(stringList, a['seamscope.validation_errors']);
  const segments = parsed(segmentsSchema, a['seamscope.segments']);
  const truncation = parsed(truncationSchema, a['seamscope.truncation']);
  // The seamscope keys are the engine's own verdict; they replace what the span status implied.
  const rest = { ...record };
  delete rest.output;
  delete rest.failure;
  // The settings the call was made with, as exported whole; an export from before they were
  // (or of a call with none) has only the GenAI ones, which stand for `params`, restored here.
  delete rest.recordedRequest;
  const settings = keptSettings(jsonOf(a['seamscope.request.settings']));
  const fidelity = parsed(rerunFidelitySchema, a['seamscope.rerun_fidelity']);
  return {
    ...rest,
    ...(settings ? { recordedRequest: settings } : {}),
    ...(fidelity ? { asRecorded: fidelity } : {}),
    ...(output !== undefined ? { output } : {}),
    errors: errors ?? (str(a['seamscope.failure']) ? record.errors : []),
    ...(str(a['seamscope.failure']) ? { failure: str(a['seamscope.failure']) } : {}),
    ...(str(a['seamscope.feedback']) ? { feedback: str(a['seamscope.feedback']) } : {}),
    ...(str(a['seamscope.raw_finish_reason']) ? { rawFinishReason: str(a['seamscope.raw_finish_reason']) } : {}),
    ...(num(a['http.response.status_code']) !== undefined ? { status: num(a['http.response.status_code']) } : {}),
    ...(num(a['seamscope.cost_usd']) !== undefined ? { costUsd: num(a['seamscope.cost_usd']) } : {}),
    ...(truncation ? { truncation } : {}),
    segments: segments ?? [],
    params: { ...record.params, structured: a['seamscope.structured'] === true },
    configHash: str(a['seamscope.config_hash']) ?? record.configHash,
  };
}

/** The engine events a step span's span events stand for. */
function stepEvents(stepId: string, span: FlatSpan): TraceEvent[] {
  const out: TraceEvent[] = [];
  for (const e of span.events) {
    const a = e.attrs;
    const at = e.atMs;
    if (e.name === 'seamscope.check') out.push({ type: 'step.check', at, stepId, check: str(a['seamscope.check.name']) ?? '', passed: a['seamscope.check.passed'] === true, problems: parsed(stringList, a['seamscope.check.problems']) ?? [] });
    else if (e.name === 'seamscope.route') out.push({ type: 'step.route', at, stepId, label: str(a['seamscope.route.label']) ?? '', chosen: parsed(stringList, a['seamscope.route.chosen']) ?? [] });
    else if (e.name === 'seamscope.transport_retry') out.push({ type: 'step.transport_retry', at, stepId, attempt: num(a['seamscope.attempt']) ?? 0, error: str(a['seamscope.error']) ?? '', status: num(a['http.response.status_code']) ?? null, waitMs: num(a['seamscope.wait_ms']) ?? 0 });
    else if (e.name === 'seamscope.unit') {
      const code = str(a['seamscope.failure.code']);
      const output = jsonOf(a['seamscope.unit.output']);
      out.push({
        type: 'step.unit', at, stepId, unitId: str(a['seamscope.unit.id']) ?? '', index: num(a['seamscope.unit.index']) ?? 0, status: a['seamscope.unit.status'] === 'error' ? 'error' : 'ok',
        ...(output !== undefined ? { output } : {}), ...(code ? { error: { code, message: str(a['seamscope.failure.message']) ?? '' } } : {}),
      });
    }
  }
  return out;
}

export interface SeamscopeImport {
  steps: ImportedStep[];
  /** The last call of each model step, for a synthetic chain when the embedded one is unusable. */
  calls: { id: string; name: string; call: LlmCall }[];
  chain: Chain | null;
  info: { chainId?: string; chainName?: string; chainRevision?: string; inputs: Record<string, unknown>; provider?: string; model?: string; status?: RunStatus; output?: unknown; error?: string; terminalStep?: string; labels?: BoundaryLabel[] };
  rootEvents: TraceEvent[];
}

export function importSeamscope(root: FlatSpan, spans: readonly FlatSpan[], warnings: string[], registry: StepRegistry): SeamscopeImport {
  const children = new Map<string, FlatSpan[]>();
  for (const s of spans) {
    if (!s.parentKey) continue;
    const list = children.get(s.parentKey) ?? [];
    list.push(s);
    children.set(s.parentKey, list);
  }
  const r = root.attrs;
  const steps: ImportedStep[] = [];
  const calls: SeamscopeImport['calls'] = [];
  const stepSpans = (children.get(root.key) ?? []).filter((s) => typeof s.attrs['seamscope.step.id'] === 'string');
  for (const span of stepSpans.sort((a, b) => a.startMs - b.startMs || a.order - b.order)) {
    const id = span.attrs['seamscope.step.id'] as string;
    const attempts: ImportedAttempt[] = [];
    for (const child of children.get(span.key) ?? []) {
      const call = mapLlmAttributes(child.attrs, child.events);
      if (!call) continue;
      const record = overlay(recordFromCall(call, child, ''), child.attrs);
      const unit = str(child.attrs['seamscope.unit']);
      attempts.push({ attempt: num(child.attrs['seamscope.attempt']) ?? attempts.length + 1, at: child.endMs, record, ...(unit !== undefined ? { unit } : {}) });
      calls.push({ id, name: str(span.attrs['seamscope.step.name']) || id, call });
    }
    const status = stepStatus.safeParse(span.attrs['seamscope.step.status']);
    const code = str(span.attrs['seamscope.failure.code']);
    const output = jsonOf(span.attrs['seamscope.step.output']);
    steps.push({
      id, startMs: span.startMs, endMs: span.endMs, status: status.success ? status.data : 'succeeded',
      latencyMs: num(span.attrs['seamscope.step.latency_ms']) ?? span.endMs - span.startMs,
      ...(output !== undefined ? { output } : {}),
      ...(code ? { failure: { code, message: str(span.attrs['seamscope.failure.message']) ?? '' } } : {}),
      ...(str(span.attrs['seamscope.step.fallback_to']) ? { fallbackTo: str(span.attrs['seamscope.step.fallback_to']) } : {}),
      attempts: attempts.sort((a, b) => a.at - b.at), extra: stepEvents(id, span),
    });
  }
  let chain: Chain | null = null;
  const embedded = str(r['seamscope.chain']);
  if (embedded) {
    const result = parseChain(embedded, registry);
    if (result.ok) chain = result.chain;
    else warnings.push(`the chain inside the export is not valid (${result.problems[0]?.path}: ${result.problems[0]?.message}); the steps were rebuilt from the recorded calls`);
  }
  const inputs = jsonOf(r['seamscope.run.inputs']);
  const labels = importLabels(r['seamscope.run.labels'], warnings);
  const status = runStatus.safeParse(r['seamscope.run.status']);
  const rootEvents: TraceEvent[] = root.events.filter((e) => e.name === 'seamscope.run.resumed').map((e) => ({
    type: 'run.resumed', at: e.atMs, restoredSteps: parsed(stringList, e.attrs['seamscope.restored_steps']) ?? [], restoredUnits: num(e.attrs['seamscope.restored_units']) ?? 0,
  }));
  return {
    steps, calls, chain, rootEvents,
    info: {
      chainId: str(r['seamscope.chain.id']), chainName: str(r['gen_ai.workflow.name']), chainRevision: str(r['seamscope.chain.revision']),
      inputs: isRecord(inputs) ? inputs : {},
      provider: str(r['seamscope.provider']), model: str(r['seamscope.model']),
      ...(status.success ? { status: status.data } : {}),
      output: jsonOf(r['seamscope.run.output']), error: str(r['seamscope.run.error']), terminalStep: str(r['seamscope.run.terminal_step']),
      ...(labels.length ? { labels } : {}),
    },
  };
}
