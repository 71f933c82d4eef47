import { hashValue } from '../chain/hash.ts';
import type { Chain } from '../chain/schema.ts';
import { ProviderError } from '../providers/errors.ts';
import { shapeScrubber } from '../providers/scrub.ts';
import type { ChatMessage, ModelProvider, ModelRequest } from '../providers/types.ts';
import { TRACE_VERSION, type AttemptRecord, type RunMeta, type RunStatus, type TraceEvent } from '../trace/events.ts';
import { toolCallOutput } from '../trace/otlp/messages.ts';
import { confirmSent, rerunRequestOf } from '../trace/recorded-request.ts';
import { createTraceRecorder } from '../trace/recorder.ts';
import type { RunRepository } from '../trace/repository.ts';
import { planSpanRerun, recordedCalls, substituteReads, type NewOutput, type RecordedCall } from '../trace/rerun-span.ts';
import type { PromptTemplate } from '../trace/span-tree.ts';
import { callModelWithRetries, defaultTransportPolicy, type TransportPolicy } from './call-model.ts';
import type { RunModelSettings } from './run.ts';

/**
 * Rerun one model span of an imported trace: the call is sent again with edited messages (or
 * its template re-rendered) to the chosen endpoint, then each later call the trace shows
 * reading its output is sent again with the new output in its place. Nothing before the span
 * is called again; calls the trace does not show reading it keep their recorded output. The
 * result is a new run, stored like any fork (`forkedFrom`), with the parent's chain and span
 * tree, so the replay compares the two step by step.
 */
export interface SpanRerunOptions {
  parent: RunMeta;
  parentEvents: readonly TraceEvent[];
  fromStep: string;
  /** The span's messages as they will be sent: edited, or its template rendered again. */
  messages: ChatMessage[];
  /** The edited template, kept on the fork's span; absent when the messages were edited directly. */
  promptTemplate?: PromptTemplate;
  provider: ModelProvider;
  /** The endpoint's settings; `name` is the model every rerun call asks for. */
  model: RunModelSettings;
  repo: RunRepository;
  profileId?: string;
  fetch?: typeof fetch;
  signal?: AbortSignal;
  runId?: string;
  now?: () => number;
  onEvent?: (event: TraceEvent) => void;
  onDelta?: (stepId: string, text: string) => void;
  transport?: Partial<TransportPolicy>;
}

/** The fork's chain: the parent's, with the rerun span's step asking for the model it was sent to. */
function forkChain(parent: RunMeta, fromStep: string, model: string): Chain {
  const chain = structuredClone(parent.chain) as Chain;
  const step = chain.steps?.find((s) => s.id === fromStep);
  if (step && typeof step.config === 'object' && step.config !== null) step.config = { ...step.config, model };
  return chain;
}

/** The output a later call reads: JSON when the recorded call asked for JSON and the text is JSON. */
function outputOf(call: RecordedCall, text: string): unknown {
  if (!call.record.params.structured) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * @example
 * const fork = await rerunSpan({ parent, parentEvents, fromStep: 'chat_mock_model',
 *   messages: [{ role: 'user', content: 'Capital of Italy?' }], provider: createDemoProvider(),
 *   model: runModelSettings(demoProfile), repo });
 * fork.forkedFrom; // { runId: parent.id, stepId: 'chat_mock_model', editedOutput: false, reused: [...] }
 */
export async function rerunSpan(opts: SpanRerunOptions): Promise<RunMeta> {
  const now = opts.now ?? Date.now;
  const plan = planSpanRerun(opts.parent, opts.parentEvents, opts.fromStep);
  const calls = new Map(recordedCalls(opts.parent, opts.parentEvents).map((c) => [c.stepId, c]));
  const scrub = opts.provider.scrubber ?? shapeScrubber;
  const runId = opts.runId ?? globalThis.crypto.randomUUID();
  const chain = forkChain(opts.parent, opts.fromStep, opts.model.name);
  const spans = opts.parent.spans?.map((n) => (n.stepId === opts.fromStep && n.promptTemplate && opts.promptTemplate ? { ...n, promptTemplate: opts.promptTemplate } : n));
  const meta: RunMeta = {
    id: runId, traceVersion: TRACE_VERSION, chainId: opts.parent.chainId, chainName: opts.parent.chainName, chainRevision: hashValue(chain),
    chain, inputs: opts.parent.inputs, provider: opts.provider.kind, model: opts.model.name, status: 'running', startedAt: now(),
    ...(opts.profileId ? { profileId: opts.profileId } : {}),
    forkedFrom: { runId: opts.parent.id, stepId: opts.fromStep, editedOutput: false, reused: plan.reused },
    ...(spans?.length ? { spans } : {}),
  };
  await opts.repo.createRun(meta);
  const recorder = createTraceRecorder(opts.repo, runId, { onEvent: opts.onEvent });
  // Whatever the endpoint echoed, the key never reaches the stored trace.
  const emit = (event: TraceEvent) => recorder.append(scrub.keysOnly.value(event));
  emit({ type: 'run.started', at: now(), runId, chainId: meta.chainId, chainName: meta.chainName, chainRevision: meta.chainRevision, inputs: meta.inputs, provider: meta.provider, model: meta.model });
  const deps = {
    provider: opts.provider, fetch: opts.fetch ?? globalThis.fetch.bind(globalThis), signal: opts.signal ?? new AbortController().signal,
    policy: { ...defaultTransportPolicy, ...opts.transport }, now, emit,
  };
  const outputs = new Map<string, NewOutput>();
  const usage = { inputTokens: 0, outputTokens: 0 };
  let end: { status: RunStatus; output?: unknown; error?: string } = { status: 'succeeded' };
  let last: unknown;
  try {
    for (const step of plan.steps) {
      const call = calls.get(step.stepId) as RecordedCall;
      if (step.action !== 'rerun') {
        // A fork's trace carries what it reused (marked so), so it replays on its own. The recorded
        // call's messages come too: the replay shows what a kept call read, and a rerun of this fork
        // can check its reads. Its usage and cost stay with the parent: this run spent nothing on it.
        const { usage: _usage, costUsd: _cost, ...record } = call.record;
        emit({ type: 'step.started', at: now(), stepId: step.stepId });
        emit({ type: 'step.attempt', at: now(), stepId: step.stepId, attempt: 1, record });
        emit({ type: 'step.finished', at: now(), stepId: step.stepId, status: call.status, latencyMs: 0, reused: true, ...(call.output !== undefined ? { output: call.output } : {}) });
        last = call.output;
        continue;
      }
      const sent = step.stepId === opts.fromStep ? { messages: opts.messages } : substituteReads(call.record.messages, step.reads, outputs);
      emit({ type: 'step.started', at: now(), stepId: step.stepId });
      if ('error' in sent) {
        emit({ type: 'step.finished', at: now(), stepId: step.stepId, status: 'failed', latencyMs: 0, failure: { code: 'not_rerunnable', message: sent.error } });
        end = { status: 'failed', error: `${step.stepId}: ${sent.error}` };
        break;
      }
      const result = await callStep(deps, step.stepId, call, sent.messages, opts);
      emit({ type: 'step.attempt', at: now(), stepId: step.stepId, attempt: 1, record: result.record });
      if (result.record.usage) {
        usage.inputTokens += result.record.usage.inputTokens;
        usage.outputTokens += result.record.usage.outputTokens;
      }
      if (result.error !== undefined) {
        emit({ type: 'step.finished', at: now(), stepId: step.stepId, status: 'failed', latencyMs: result.record.latencyMs, failure: { code: 'provider_error', message: result.error } });
        end = { status: 'failed', error: `${step.stepId}: ${result.error}` };
        break;
      }
      // A tool-only reply's output is its calls, as the import records one (the replay shows what the model did).
      const output = result.text === '' && result.record.toolCalls?.length ? result.record.toolCalls.map(toolCallOutput) : outputOf(call, result.text);
      outputs.set(step.stepId, { text: result.text, output });
      emit({ type: 'step.finished', at: now(), stepId: step.stepId, status: 'succeeded', latencyMs: result.record.latencyMs, output });
      last = output;
    }
    if (end.status === 'succeeded') end = { status: 'succeeded', ...(last !== undefined ? { output: last } : {}) };
  } catch (error) {
    end = error instanceof ProviderError && error.code === 'aborted' ? { status: 'cancelled', error: 'The run was cancelled' } : { status: 'failed', error: scrub.text((error as Error).message) };
  }
  emit({ type: 'run.finished', at: now(), ...end });
  await recorder.close();
  const finished: Partial<RunMeta> = { status: end.status, finishedAt: now(), usage, ...(end.output !== undefined ? { output: end.output } : {}), ...(end.error ? { error: end.error } : {}) };
  await opts.repo.updateRun(runId, finished);
  return { ...meta, ...finished };
}

type CallDeps = Parameters<typeof callModelWithRetries>[0];

/**
 * One call sent again as the trace recorded it, to the chosen model: its cap and temperature,
 * and its output format, tools, tool choice and streaming where the trace recorded them; the
 * attempt record names what of the recorded request was not sent (`asRecorded`).
 */
async function callStep(deps: CallDeps, stepId: string, call: RecordedCall, messages: ChatMessage[], opts: SpanRerunOptions): Promise<{ record: AttemptRecord; text: string; error?: string }> {
  const again = rerunRequestOf(call.record, opts.model);
  const params = { model: opts.model.name, maxTokens: again.maxTokens, ...(again.temperature !== undefined ? { temperature: again.temperature } : {}), structured: again.contract !== undefined, stream: again.stream };
  const request: ModelRequest = {
    model: params.model, messages, maxTokens: params.maxTokens, ...(params.temperature !== undefined ? { temperature: params.temperature } : {}),
    ...(again.contract ? { contract: again.contract } : {}), ...(again.tools ? { tools: again.tools } : {}), ...(again.toolChoice ? { toolChoice: again.toolChoice } : {}),
    ...(again.sampling ? { sampling: again.sampling } : {}), ...(again.jsonMode ? { jsonMode: true } : {}),
    ...(again.stream ? { stream: true } : {}),
  };
  const base = {
    messages, segments: [], params, asRecorded: again.fidelity,
    configHash: hashValue({ messages, params, contract: again.contract, tools: again.tools, toolChoice: again.toolChoice, ...(again.sampling ? { sampling: again.sampling } : {}), ...(again.jsonMode ? { jsonMode: true } : {}) }),
  };
  try {
    const { response, latencyMs } = await callModelWithRetries(deps, stepId, request, opts.onDelta ? (text) => opts.onDelta?.(stepId, text) : undefined);
    const prices = opts.model.prices;
    const record: AttemptRecord = {
      ...base, asRecorded: confirmSent(again, response.requestBody), requestBody: response.requestBody, rawResponse: response.rawResponse, text: response.text,
      finishReason: response.finishReason, rawFinishReason: response.rawFinishReason, errors: [], latencyMs, usage: response.usage,
      ...(response.toolCalls?.length ? { toolCalls: response.toolCalls } : {}),
      ...(prices ? { costUsd: (response.usage.inputTokens * prices.input + response.usage.outputTokens * prices.output) / 1_000_000 } : {}),
    };
    return { record, text: response.text };
  } catch (error) {
    if (error instanceof ProviderError && error.code === 'aborted') throw error;
    const message = (error as Error).message;
    return { record: { ...base, errors: [message], failure: 'provider_error', latencyMs: 0 }, text: '', error: message };
  }
}
