import { hashString, hashValue } from '../../chain/hash.ts';
import type { StepRegistry } from '../../steps/index.ts';
import type { RunMeta, RunStatus, TraceEvent } from '../events.ts';
import { chainHashes } from './chain-hash.ts';
import { assembleRun, recordFromCall, spanError, type ImportedRun, type ImportedStep } from './assemble.ts';
import { mapLlmAttributes, type LlmCall } from './conventions.ts';
import { readOtlpJson } from './guard.ts';
import type { OtlpTraceData } from './otlp-json.ts';
import { importSeamscope, seamscopeRoot } from './import-seamscope.ts';
import { flattenSpans, indexSpans, uniqueStepId, wrapperFinder, type FlatSpan } from './spans.ts';
import { buildSyntheticChain, type ImportedCallStep } from './synthetic-chain.ts';
import { buildSpanTree, traceNameOf, type SpanNode } from '../span-tree.ts';
import { promptTemplateOf } from './prompt-template.ts';

/**
 * Imports an OTLP/JSON trace of LLM calls into a run the replay view can show. Accepts the
 * current OTel GenAI keys, their deprecated generations (indexed `gen_ai.prompt.N.*`,
 * OpenLit content events), OpenInference and the Vercel AI SDK, and Seamscope's own export.
 * Pure: it returns a run and its events and stores nothing, so a refused file changes
 * nothing; it never throws, every problem comes back as one plain message.
 *
 * @example
 * const result = importOtlpTrace(await file.text(), stepRegistry);
 * if (!result.ok) showError(result.message);
 * else { await repo.createRun(result.run); await repo.appendEvents(result.run.id, result.events); }
 */
export type ImportOtlpResult =
  | { ok: true; run: RunMeta; events: TraceEvent[]; warnings: string[] }
  | { ok: false; message: string };

/** One recorded LLM call and the span (or span-like record) it came from. */
export interface FoundCall {
  span: FlatSpan;
  call: LlmCall;
  name: string;
}

const LABELS: Record<string, string> = {
  'otel-genai': 'OpenTelemetry GenAI', 'otel-genai-deprecated': 'OpenTelemetry GenAI (deprecated keys)', openlit: 'OpenLit content events',
  openllmetry: 'OpenLLMetry (Traceloop)', openinference: 'OpenInference', 'vercel-ai-sdk': 'Vercel AI SDK', langfuse: 'Langfuse export', seamscope: 'Seamscope export',
};

const labelsOf = (calls: readonly FoundCall[]) => [...new Set(calls.flatMap((c) => c.call.conventions))].sort().map((c) => LABELS[c] ?? c);

export const listNames = (names: readonly string[]) => {
  const unique = [...new Set(names)];
  return unique.slice(0, 5).map((n) => `"${n}"`).join(', ') + (unique.length > 5 ? `, … (${unique.length - 5} more)` : '');
};

/** The warning for calls whose reply could not be read (an errored call often has none: not counted). */
export function silentOutputWarning(
  calls: readonly FoundCall[], noun = 'LLM span(s)',
  why = 'content capture may be off, or the instrumentation sends content as log events, which a trace file does not hold',
): string | null {
  const silent = calls.filter((c) => c.call.text === undefined && !c.call.toolCalls?.length && !spanError(c.span));
  if (silent.length === 0) return null;
  return `no output text or tool call could be recovered from ${silent.length} ${noun}: ${listNames(silent.map((c) => c.span.name))}; their steps have no output (${why})`;
}

/** The LLM calls among the spans, nested wrappers collapsed onto the innermost call. */
function findCalls(spans: readonly FlatSpan[], warnings: string[]): FoundCall[] {
  const index = indexSpans(spans);
  const wrapperOf = wrapperFinder(spans, index);
  const found: FoundCall[] = [];
  const wrappers = new Set<FlatSpan>();
  for (const span of spans) {
    const wrapper = wrapperOf(span);
    const call = mapLlmAttributes(span.attrs, span.events, wrapper?.attrs);
    if (!call) continue;
    // A Vercel wrapper (ai.generateText around its doGenerate) is folded into the call, not skipped.
    if (wrapper && typeof wrapper.attrs['ai.operationId'] === 'string') wrappers.add(wrapper);
    const fn = span.attrs['ai.telemetry.functionId'];
    found.push({ span, call, name: typeof fn === 'string' && fn ? fn : span.name });
  }
  // An LLM span with an LLM span inside it (a framework span around the client span) is the same call twice.
  const inner = new Set(found.flatMap((f) => index.ancestors(f.span)));
  const calls = found.filter((f) => !inner.has(f.span));
  if (calls.length < found.length) warnings.push(`${found.length - calls.length} span(s) wrapping another LLM call were merged into the inner call`);
  const silent = silentOutputWarning(calls);
  if (silent) warnings.push(silent);
  const used = new Set([...calls.map((c) => c.span), ...wrappers]);
  const skipped = spans.filter((s) => !used.has(s) && !inner.has(s));
  if (skipped.length > 0) warnings.push(`${skipped.length} span(s) that are not LLM calls made no step (they are in the span tree): ${listNames(skipped.map((s) => s.name))}`);
  return calls.sort((a, b) => a.span.startMs - b.span.startMs || a.span.endMs - b.span.endMs || a.span.order - b.span.order);
}

function serviceName(spans: readonly FlatSpan[]): string | undefined {
  const name = spans[0]?.resource['service.name'];
  return typeof name === 'string' && name && name !== 'default' && !name.startsWith('unknown_service') ? name : undefined;
}

function genericSteps(calls: readonly FoundCall[], configHashes: ReadonlyMap<string, string>, ids: readonly string[]): ImportedStep[] {
  return calls.map((c, i) => {
    const id = ids[i] as string;
    const record = recordFromCall(c.call, c.span, configHashes.get(id) ?? '');
    if (c.call.costUsd !== undefined) record.costUsd = c.call.costUsd;
    const error = spanError(c.span);
    return {
      id, startMs: c.span.startMs, endMs: c.span.endMs, status: error ? 'failed' : 'succeeded', latencyMs: record.latencyMs,
      ...(record.output !== undefined ? { output: record.output } : {}),
      ...(error ? { failure: { code: 'provider_error', message: error } } : {}),
      attempts: [{ attempt: 1, at: c.span.endMs, record }], extra: [],
    };
  });
}

/** Seamscope's own export: steps, attempts and the chain come back as they were recorded. */
function importOwn(root: FlatSpan, spans: readonly FlatSpan[], calls: readonly FoundCall[], runId: string, warnings: string[], registry: StepRegistry): ImportOtlpResult {
  const own = importSeamscope(root, spans, warnings, registry);
  const importedFrom = [LABELS.seamscope as string, ...labelsOf(calls)];
  const chain = own.chain ?? buildSyntheticChain(dedupeCalls(own.calls), registry, { id: own.info.chainId ?? runId, name: own.info.chainName ?? 'Imported run', importedFrom });
  chain.meta = { ...chain.meta, importedFrom, importedRunId: root.attrs['seamscope.run.id'] };
  const first = calls[0]?.call;
  const status: RunStatus = own.info.status ?? (own.steps.some((s) => s.status === 'failed') ? 'failed' : 'succeeded');
  const { meta, events } = assembleRun({
    id: runId, chain, chainId: own.info.chainId ?? chain.id, chainName: own.info.chainName ?? chain.name, chainRevision: own.info.chainRevision ?? hashValue(chain),
    inputs: own.info.inputs, provider: own.info.provider ?? first?.provider ?? 'unknown', model: own.info.model ?? first?.model ?? 'unknown',
    status, startedAt: root.startMs, ...(status !== 'running' ? { finishedAt: root.endMs } : {}),
    output: own.info.output, error: own.info.error, terminalStep: own.info.terminalStep, rootEvents: own.rootEvents,
    ...(own.info.labels ? { labels: own.info.labels } : {}),
  }, own.steps);
  return { ok: true, run: meta, events, warnings };
}

/**
 * Any other trace: one model step per LLM call, in time order, on a synthetic chain. Also the
 * last stage of the Langfuse import, which hands its observations over as span-like records.
 */
export function importGeneric(spans: readonly FlatSpan[], calls: readonly FoundCall[], runId: string, warnings: string[], registry: StepRegistry, source?: string, name?: string): ImportOtlpResult {
  const taken = new Set<string>();
  const suffixes = new Map<string, number>();
  const ids = calls.map((c) => uniqueStepId(c.span.name, taken, suffixes));
  const stepCalls: ImportedCallStep[] = calls.map((c, i) => ({ id: ids[i] as string, name: c.name, call: c.call }));
  // Named as the tracing tools name it: the root span, else the service (the app keeps names unique).
  const chainName = name ?? traceNameOf(spans, serviceName(spans)) ?? calls[0]?.span.name ?? 'LLM calls';
  const chain = buildSyntheticChain(stepCalls, registry, { id: runId, name: chainName, importedFrom: labelsOf(calls), ...(source ? { source } : {}) });
  const hashes = chainHashes(chain);
  const configHashes = hashes.configs;
  const steps = genericSteps(calls, configHashes, ids);
  const failed = steps.find((s) => s.status === 'failed');
  const first = calls[0]?.call;
  const tree = buildSpanTree(spans, new Map(calls.map((c, i) => [c.span.key, ids[i] as string])));
  const nodes = withPromptTemplates(tree.nodes, calls);
  const run: ImportedRun = {
    id: runId, chain, chainId: runId, chainName: chain.name, chainRevision: hashes.revision, inputs: {},
    provider: first?.provider ?? 'unknown', model: first?.model ?? first?.responseModel ?? 'unknown', status: failed ? 'failed' : 'succeeded',
    // reduce, not Math.min(...spans): a spread of 100k+ values overflows the argument stack.
    startedAt: spans.reduce((min, s) => Math.min(min, s.startMs), Infinity),
    finishedAt: spans.reduce((max, s) => Math.max(max, s.endMs), -Infinity),
    ...(failed ? { error: `${failed.id}: ${failed.failure?.message ?? 'failed'}` } : { output: steps[steps.length - 1]?.output }),
    rootEvents: [],
    spans: nodes,
    ...(tree.omitted ? { spansOmitted: tree.omitted } : {}),
  };
  const { meta, events } = assembleRun(run, steps);
  return { ok: true, run: meta, events, warnings };
}

/** Model spans keep the prompt template their instrumentation recorded (a rerun edits it). */
function withPromptTemplates(nodes: SpanNode[], calls: readonly FoundCall[]): SpanNode[] {
  const templates = new Map(calls.flatMap((c) => {
    const template = promptTemplateOf(c.span.attrs);
    return template ? [[c.span.key, template] as const] : [];
  }));
  return templates.size === 0 ? nodes : nodes.map((n) => {
    const promptTemplate = n.stepId ? templates.get(n.id) : undefined;
    return promptTemplate ? { ...n, promptTemplate } : n;
  });
}

function importUnchecked(text: string, registry: StepRegistry): ImportOtlpResult {
  const read = readOtlpJson(text);
  if (!read.ok) return read;
  return importChecked(read.data, text, registry);
}

/** A run's id and name given by the caller instead of derived from the trace (the collector's late spans of a trace already written). */
export interface RunNaming {
  runId: string;
  name: string;
}

/** A payload that has passed readOtlpJson's checks → a run; `text` is its JSON, which the run id is derived from. */
function importChecked(data: OtlpTraceData, text: string, registry: StepRegistry, naming?: RunNaming): ImportOtlpResult {
  const spans = flattenSpans(data);
  if (spans.length === 0) return { ok: false, message: 'the trace holds no spans' };
  const warnings: string[] = [];
  const root = seamscopeRoot(spans);
  const calls = findCalls(root ? spans.filter((s) => s !== root) : spans, root ? [] : warnings);
  // A Seamscope run may have failed before any model call; its export still imports.
  if (calls.length === 0 && !root) {
    return { ok: false, message: `no LLM calls found: none of the ${spans.length} span(s) (${listNames(spans.map((s) => s.name))}) carries the gen_ai.*, llm.*, OpenInference or Vercel AI SDK (ai.*) attributes of a model call` };
  }
  const traceIds = new Set(spans.map((s) => s.traceId));
  if (traceIds.size > 1) warnings.push(`the file holds ${traceIds.size} traces; they were imported as one run, ordered by start time`);
  const notes = [...new Set(calls.flatMap((c) => c.call.notes))];
  if (notes.length > 0) warnings.push(`Seamscope messages are plain text, so: ${notes.join('; ')}`);
  // Derived from the content: the same file always gets the same id, and never an existing run's id.
  const runId = naming?.runId ?? `otlp-${hashString(text)}`;
  return root ? importOwn(root, spans, calls, runId, warnings, registry) : importGeneric(spans, calls, runId, warnings, registry, undefined, naming?.name);
}

/** One synthetic step per Seamscope step: its last recorded call stands for the step. */
function dedupeCalls(calls: readonly ImportedCallStep[]): ImportedCallStep[] {
  const byId = new Map<string, ImportedCallStep>();
  for (const c of calls) byId.set(c.id, c);
  return [...byId.values()];
}

const failed = (error: unknown): ImportOtlpResult => ({ ok: false, message: `the trace could not be imported: ${(error as Error)?.message ?? String(error)}` });

export function importOtlpTrace(text: string, registry: StepRegistry): ImportOtlpResult {
  try {
    return importUnchecked(text, registry);
  } catch (error) {
    // A bug here must not surface as a stack trace in the app; the file is refused instead.
    return failed(error);
  }
}

/**
 * For `seamscope collect`, which has already held every span of the payload to the checks
 * readOtlpJson makes (the same span schema and value limits, as each request arrived): the
 * payload is imported without reading and checking it a second time. `text` is the payload
 * as JSON, so a trace gets the same run id whichever way it was imported (unless `naming` gives one).
 */
export function importCheckedOtlpTrace(data: OtlpTraceData, text: string, registry: StepRegistry, naming?: RunNaming): ImportOtlpResult {
  try {
    return importChecked(data, text, registry, naming);
  } catch (error) {
    return failed(error);
  }
}
