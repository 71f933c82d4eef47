import { hashValue } from '../chain/hash.ts';
import { ProviderError } from '../providers/errors.ts';
import type { OutputContract } from '../providers/types.ts';
import type { AttemptRecord, PromptSegment } from '../trace/events.ts';
import { applyBudget } from './budget.ts';
import { hasDynamicEnums, resolveDynamicEnums } from './dynamic-enum.ts';
import { forcedTools, type ModelConfig } from './model.config.ts';
import { assemblePrompt, feedbackMessage, isStrictCompatible, parseModelJson } from './model-prompt.ts';
import { describeToolCalls, judgeForcedTool, toolRequest, unexpectedToolCalls } from './model-tools.ts';
import type { StepOutcome, StepRunContext } from './types.ts';

/**
 * A model call with a contract: render the template, call, parse JSON, validate against the
 * output schema, and on failure retry with the errors sent back as feedback. Every attempt
 * becomes a trace event with the exact messages sent and what came back. Shared by every
 * step kind that calls a model (model, map units, reduce).
 */
export interface ContractCallInput {
  config: ModelConfig;
  values: Record<string, unknown>;
  untrusted: ReadonlySet<string>;
  /** Set for map units, so the trace tells units apart. */
  unit?: string;
}

const strictBySchema = new WeakMap<Record<string, unknown>, boolean>();
function strictCompatible(schema: Record<string, unknown>): boolean {
  let strict = strictBySchema.get(schema);
  if (strict === undefined) strictBySchema.set(schema, (strict = isStrictCompatible(schema)));
  return strict;
}

/**
 * The call parameters and config hash depend only on the (parsed, never mutated) config and
 * the parameter values, so both are made once per distinct parameter set and shared by every
 * attempt that uses it (attempt records are never changed once emitted).
 */
type CallParams = AttemptRecord['params'];
interface ParamsEntry {
  params: CallParams;
  configHash: string;
}
const paramsByConfig = new WeakMap<ModelConfig, ParamsEntry[]>();
const maxParamsPerConfig = 16;
function paramsFor(cfg: ModelConfig, model: string, maxTokens: number, structured: boolean): ParamsEntry {
  let entries = paramsByConfig.get(cfg);
  if (!entries) paramsByConfig.set(cfg, (entries = []));
  for (const entry of entries) {
    const p = entry.params;
    if (p.model === model && p.maxTokens === maxTokens && p.temperature === cfg.temperature && p.structured === structured && p.stream === cfg.stream) return entry;
  }
  const params: CallParams = { model, maxTokens, temperature: cfg.temperature, structured, stream: cfg.stream };
  const entry: ParamsEntry = {
    params,
    // Tools join the hash only when declared, so configs without them keep their hashes.
    configHash: hashValue({
      system: cfg.system, prompt: cfg.prompt, schema: cfg.outputSchema, params, budget: cfg.inputBudget, truncate: cfg.truncate,
      ...(cfg.tools?.length ? { tools: cfg.tools, toolChoice: cfg.toolChoice ?? 'auto' } : {}),
    }),
  };
  if (entries.length >= maxParamsPerConfig) entries.shift();
  entries.push(entry);
  return entry;
}

/** The output contract sent with every call of a config (its schema never changes). */
const contractByConfig = new WeakMap<ModelConfig, OutputContract>();
function contractFor(cfg: ModelConfig & { outputSchema: Record<string, unknown> }): OutputContract {
  let contract = contractByConfig.get(cfg);
  if (!contract || contract.schema !== cfg.outputSchema || contract.name !== cfg.schemaName) {
    contract = { name: cfg.schemaName, schema: cfg.outputSchema, strict: strictCompatible(cfg.outputSchema) };
    contractByConfig.set(cfg, contract);
  }
  return contract;
}

/** The assistant turn replayed before the feedback when the model's answer had no text. */
export const EMPTY_ANSWER = '(empty response)';

export async function runContractCall(ctx: StepRunContext<unknown>, input: ContractCallInput): Promise<StepOutcome> {
  let cfg = input.config;
  if (cfg.outputSchema && hasDynamicEnums(cfg.outputSchema)) {
    const resolved = resolveDynamicEnums(cfg.outputSchema, input.values);
    if ('error' in resolved) return { status: 'failed', failure: { code: 'missing_input', message: resolved.error } };
    cfg = { ...cfg, outputSchema: resolved.schema };
  }
  const model = cfg.model || ctx.model.name;
  // A forced tool is the contract: its parameters shape the answer, so no json_schema is sent beside it.
  const forced = forcedTools(cfg);
  const structured = Boolean(cfg.outputSchema) && ctx.model.structuredOutput && !forced;
  const assemble = (values: Record<string, unknown>) => assemblePrompt(cfg, values, input.untrusted, { schemaInPrompt: Boolean(cfg.outputSchema) && !structured && !forced });
  const measure = (values: Record<string, unknown>) => assemble(values).messages.reduce((n, m) => n + ctx.countTokens(m.content), 0);
  let values = input.values;
  let truncation: AttemptRecord['truncation'];
  if (cfg.inputBudget > 0) {
    const budgeted = cfg.truncate && Object.prototype.hasOwnProperty.call(values, cfg.truncate.binding)
      ? applyBudget(values, cfg.inputBudget, cfg.truncate, measure, ctx.countTokens)
      : null;
    if (budgeted) ({ values, truncation } = budgeted);
    const total = measure(values);
    if (total > cfg.inputBudget) {
      return { status: 'failed', failure: { code: 'over_budget', message: `the assembled prompt is ${total} tokens, over the ${cfg.inputBudget}-token input budget, and no truncation policy cuts it` } };
    }
  }
  const assembled = assemble(values);
  if (assembled.missing.length > 0) {
    return { status: 'failed', failure: { code: 'missing_input', message: `The prompt names ${assembled.missing.map((m) => `{${m}}`).join(', ')} but no value is bound to it` } };
  }
  const maxTokens = Math.min(cfg.maxTokens, ctx.model.maxOutputTokens);
  // Prompt, model, parameters and validator versioned together: any output traces back to this.
  const { params, configHash } = paramsFor(cfg, model, maxTokens, structured);
  const contract = cfg.outputSchema && !forced ? contractFor(cfg as ModelConfig & { outputSchema: Record<string, unknown> }) : undefined;
  const tools = toolRequest(cfg);
  // The assembled prompt is this call's own: its segments get their token counts in place.
  // Both lists are replaced, never pushed to, once an attempt's record holds them.
  let messages = assembled.messages;
  let segments = assembled.segments as PromptSegment[];
  for (const segment of segments) segment.tokens = ctx.countTokens(segment.text);
  const attempts = cfg.retries + 1;
  let lastFailure = { code: 'schema_violation', message: '' };

  for (let attempt = 1; attempt <= attempts; attempt++) {
    const started = ctx.now();
    const record: AttemptRecord = { messages, segments, params, errors: [], latencyMs: 0, configHash, ...(truncation ? { truncation } : {}) };
    try {
      const onDelta = cfg.stream && ctx.onDelta ? (text: string) => ctx.onDelta?.(text, input.unit) : undefined;
      const { response, latencyMs } = await ctx.callModel({ model, messages: record.messages, maxTokens, temperature: cfg.temperature, contract, stream: cfg.stream, ...tools }, onDelta);
      Object.assign(record, {
        requestBody: response.requestBody, rawResponse: response.rawResponse, text: response.text,
        finishReason: response.finishReason, rawFinishReason: response.rawFinishReason, status: response.status,
        usage: response.usage, latencyMs,
        ...(response.toolCalls?.length ? { toolCalls: response.toolCalls } : {}),
        ...(response.reasoning ? { reasoning: response.reasoning } : {}),
      });
      const prices = ctx.model.prices;
      if (prices && (prices.input > 0 || prices.output > 0)) {
        record.costUsd = (response.usage.inputTokens * prices.input + response.usage.outputTokens * prices.output) / 1_000_000;
      }
      judgeResponse(ctx, record, cfg, maxTokens, forced);
    } catch (error) {
      if (error instanceof ProviderError && error.code === 'aborted') throw error;
      record.latencyMs = ctx.now() - started;
      record.failure = 'provider_error';
      record.status = error instanceof ProviderError ? (error.status ?? undefined) : undefined;
      record.errors = [(error as Error).message];
      record.rawResponse = error instanceof ProviderError ? error.body : undefined;
    }

    // Another attempt cannot fix a transport failure (already retried below us) or a refusal.
    const canRetry = attempt < attempts && record.failure !== 'provider_error' && record.failure !== 'refusal';
    if (record.failure && canRetry) {
      record.feedback = feedbackMessage(record.errors);
      // An empty assistant turn is refused by Anthropic (400 "non-empty content"), which would turn
      // every retry after an empty answer into a transport failure: say it was empty instead.
      messages = [...messages, { role: 'assistant', content: replayedAnswer(record) }, { role: 'user', content: record.feedback }];
      segments = [...segments, { kind: 'feedback', text: record.feedback, tokens: ctx.countTokens(record.feedback) }];
    }
    ctx.emit({ type: 'step.attempt', at: ctx.now(), stepId: ctx.step.id, attempt, record, ...(input.unit !== undefined ? { unit: input.unit } : {}) });
    if (!record.failure) return { status: 'succeeded', output: record.output };
    lastFailure = { code: record.failure, message: record.errors.join('; ') };
    if (!canRetry) break;
  }
  return { status: 'failed', failure: lastFailure };
}

/** The failed answer as replayed before the feedback: its text, else its tool calls, else a word that it was empty. */
function replayedAnswer(record: AttemptRecord): string {
  const calls = record.toolCalls?.length ? describeToolCalls(record.toolCalls) : '';
  const text = record.text?.trim() ? record.text : '';
  return [text, calls].filter(Boolean).join('\n') || EMPTY_ANSWER;
}

/** Decides whether a response is a usable output; fills `failure` and `errors` when it is not. */
function judgeResponse(ctx: StepRunContext<unknown>, record: AttemptRecord, cfg: ModelConfig, maxTokens: number, forced: ReturnType<typeof forcedTools>): void {
  if (record.finishReason === 'length') {
    record.failure = 'truncated';
    record.errors = [`the output was cut off at the ${maxTokens}-token output cap (${record.rawFinishReason ?? 'length'}); it is truncated, not complete`];
  } else if (record.finishReason === 'refusal' || record.finishReason === 'content_filter') {
    record.failure = 'refusal';
    record.errors = [`the model refused: ${(record.text ?? '').slice(0, 300)}`];
  } else if (forced) {
    judgeForcedTool(record, forced, ctx.validate);
  } else if (unexpectedToolCalls(record)) {
    return;
  } else if (!cfg.outputSchema) {
    record.output = record.text;
  } else {
    const parsed = parseModelJson(record.text ?? '');
    if (!parsed.ok) {
      record.failure = 'invalid_json';
      record.errors = [parsed.error];
    } else {
      record.output = parsed.value;
      record.errors = ctx.validate(cfg.outputSchema, parsed.value);
      if (record.errors.length > 0) record.failure = 'schema_violation';
    }
  }
}
