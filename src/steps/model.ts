import { hashValue } from '../chain/hash.ts';
import { ProviderError } from '../providers/errors.ts';
import type { AttemptRecord, PromptSegment } from '../trace/events.ts';
import { fallbackTarget } from './common.ts';
import { modelConfigSchema, type ModelConfig } from './model.config.ts';
import { assemblePrompt, feedbackMessage, isStrictCompatible, parseModelJson } from './model-prompt.ts';
import { defineStep, type StepOutcome, type StepRunContext } from './types.ts';

/**
 * A model call with a contract: render the template, call, parse JSON, validate against the
 * output schema, and on failure retry with the errors sent back as feedback. Every attempt
 * becomes a trace event with the exact messages sent and what came back.
 */

function schemaFields(schema: Record<string, unknown> | null): string[] {
  const props = schema?.properties;
  if (!props || typeof props !== 'object') return [];
  const required = new Set(Array.isArray(schema?.required) ? (schema.required as string[]) : []);
  return Object.entries(props as Record<string, { type?: unknown }>).map(([name, s]) => `${name}${required.has(name) ? '' : '?'}: ${Array.isArray(s?.type) ? s.type.join('|') : String(s?.type ?? 'any')}`);
}

async function runModelStep(ctx: StepRunContext<ModelConfig>, countTokens: (text: string) => number): Promise<StepOutcome> {
  const cfg = ctx.config;
  const model = cfg.model || ctx.model.name;
  const structured = Boolean(cfg.outputSchema) && ctx.model.structuredOutput;
  const assembled = assemblePrompt(cfg, ctx.values, ctx.untrusted, { schemaInPrompt: Boolean(cfg.outputSchema) && !structured });
  if (assembled.missing.length > 0) {
    return { status: 'failed', failure: { code: 'missing_input', message: `The prompt names ${assembled.missing.map((m) => `{${m}}`).join(', ')} but no value is bound to it` } };
  }
  const maxTokens = Math.min(cfg.maxTokens, ctx.model.maxOutputTokens);
  const params = { model, maxTokens, temperature: cfg.temperature, structured, stream: cfg.stream };
  const configHash = hashValue({ system: cfg.system, prompt: cfg.prompt, schema: cfg.outputSchema, params });
  const contract = cfg.outputSchema ? { name: cfg.schemaName, schema: cfg.outputSchema, strict: isStrictCompatible(cfg.outputSchema) } : undefined;
  const baseSegments: PromptSegment[] = assembled.segments.map((s) => ({ ...s, tokens: countTokens(s.text) }));

  const messages = [...assembled.messages];
  const segments = [...baseSegments];
  const attempts = cfg.retries + 1;
  let lastFailure = { code: 'schema_violation', message: '' };

  for (let attempt = 1; attempt <= attempts; attempt++) {
    const started = ctx.now();
    const record: AttemptRecord = { messages: [...messages], segments: [...segments], params, errors: [], latencyMs: 0, configHash };
    try {
      const { response, latencyMs } = await ctx.callModel({ model, messages: record.messages, maxTokens, temperature: cfg.temperature, contract, stream: cfg.stream });
      Object.assign(record, {
        requestBody: response.requestBody, rawResponse: response.rawResponse, text: response.text,
        finishReason: response.finishReason, rawFinishReason: response.rawFinishReason, status: response.status,
        usage: response.usage, latencyMs,
      });
      if (response.finishReason === 'length') {
        record.failure = 'truncated';
        record.errors = [`the output was cut off at the ${maxTokens}-token output cap (${response.rawFinishReason ?? 'length'}); it is truncated, not complete`];
      } else if (response.finishReason === 'refusal' || response.finishReason === 'content_filter') {
        record.failure = 'refusal';
        record.errors = [`the model refused: ${response.text.slice(0, 300)}`];
      } else if (!cfg.outputSchema) {
        record.output = response.text;
      } else {
        const parsed = parseModelJson(response.text);
        if (!parsed.ok) {
          record.failure = 'invalid_json';
          record.errors = [parsed.error];
        } else {
          record.output = parsed.value;
          record.errors = ctx.validate(cfg.outputSchema, parsed.value);
          if (record.errors.length > 0) record.failure = 'schema_violation';
        }
      }
    } catch (error) {
      if (error instanceof ProviderError && error.code === 'aborted') throw error;
      record.latencyMs = ctx.now() - started;
      record.failure = 'provider_error';
      record.status = error instanceof ProviderError ? (error.status ?? undefined) : undefined;
      record.errors = [(error as Error).message];
      record.rawResponse = error instanceof ProviderError ? error.body : undefined;
    }

    const canRetry = attempt < attempts && record.failure !== 'provider_error' && record.failure !== 'refusal';
    if (record.failure && canRetry) {
      record.feedback = feedbackMessage(record.errors);
      messages.push({ role: 'assistant', content: record.text ?? '' }, { role: 'user', content: record.feedback });
      segments.push({ kind: 'feedback', text: record.feedback, tokens: countTokens(record.feedback) });
    }
    ctx.emit({ type: 'step.attempt', at: ctx.now(), stepId: ctx.step.id, attempt, record });
    if (!record.failure) return { status: 'succeeded', output: record.output };
    lastFailure = { code: record.failure, message: record.errors.join('; ') };
    if (!canRetry) break;
  }
  return { status: 'failed', failure: lastFailure };
}

export const modelStep = defineStep<'model', ModelConfig>({
  kind: 'model',
  title: 'Model',
  group: 'Model',
  description: 'A model call with a prompt template and a JSON-schema contract, validated and retried with feedback.',
  config: modelConfigSchema,
  defaults: () => modelConfigSchema.parse({
    prompt: 'Answer using only the text below.\n\n{text}',
    outputSchema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false },
  }),
  bindings: (cfg) => cfg.bindings,
  branches: (cfg) => {
    const target = fallbackTarget(cfg.onFail);
    return target ? [{ label: 'fallback', to: target, kind: 'fallback' as const }] : [];
  },
  terminal: false,
  fields: [
    { kind: 'bindings', key: 'bindings', label: 'Reads' },
    { kind: 'textarea', key: 'system', label: 'System message', rows: 3, template: true },
    { kind: 'textarea', key: 'prompt', label: 'Prompt template', rows: 8, template: true },
    { kind: 'json', key: 'outputSchema', label: 'Output schema', schemaHint: 'jsonSchema' },
    { kind: 'text', key: 'model', label: 'Model (blank: the profile default)' },
    { kind: 'number', key: 'temperature', label: 'Temperature', min: 0, max: 2, step: 0.1 },
    { kind: 'number', key: 'maxTokens', label: 'Max output tokens', min: 1 },
    { kind: 'number', key: 'retries', label: 'Retries with feedback', min: 0, max: 5 },
    { kind: 'onFail', key: 'onFail', label: 'When retries are spent' },
  ],
  summary: (cfg) => [cfg.model ? `model: ${cfg.model}` : 'model: profile default', ...(cfg.outputSchema ? schemaFields(cfg.outputSchema) : ['free text (no schema)'])],
  outputSchema: (cfg) => cfg.outputSchema,
  run: (ctx) => runModelStep(ctx, ctx.countTokens),
});
