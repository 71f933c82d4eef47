import { lazyModule } from './lazy-module.ts';
import { fallbackTarget } from './common.ts';
import { parseRef } from '../chain/refs.ts';
import { budgetNeedsTokenizer, forcedToolSchema, modelConfigSchema, modelContract, type ModelConfig } from './model.config.ts';
import { defineStep } from './types.ts';

const modelCall = lazyModule(() => import('./model-call.ts'));

/** A model call with a prompt template and an output contract (see model-call.ts). */

function schemaFields(schema: Record<string, unknown> | null): string[] {
  const props = schema?.properties;
  if (!props || typeof props !== 'object') return [];
  const required = new Set(Array.isArray(schema?.required) ? (schema.required as string[]) : []);
  return Object.entries(props as Record<string, { type?: unknown }>).map(([name, s]) => `${name}${required.has(name) ? '' : '?'}: ${Array.isArray(s?.type) ? s.type.join('|') : String(s?.type ?? 'any')}`);
}

/** A tool choice that forces nothing it means to: it would run as `auto` and fail on a tool-only reply. */
function toolChoiceProblems(cfg: ModelConfig) {
  const choice = cfg.toolChoice;
  const tools = cfg.tools ?? [];
  if (!choice || choice === 'auto') return [];
  if (tools.length === 0) return [{ code: 'tool-choice-without-tools', severity: 'error' as const, message: 'The tool choice forces a tool call, but the step declares no tools.' }];
  if (typeof choice === 'object' && !tools.some((t) => t.name === choice.name)) {
    return [{ code: 'tool-choice-unknown', severity: 'error' as const, message: `The tool choice names "${choice.name}", which is not one of the step's tools (${tools.map((t) => t.name).join(', ')}).` }];
  }
  return [];
}

function outputSummary(cfg: ModelConfig): string[] {
  const tool = forcedToolSchema(cfg);
  if (tool) return [`forced tool call`, ...schemaFields(tool)];
  return cfg.outputSchema ? schemaFields(cfg.outputSchema) : ['free text (no schema)'];
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
  produces: { by: 'model', contract: modelContract },
  python: { form: 'call', spec: 'ModelSpec', method: 'model', model: true },
  onFail: (cfg) => cfg.onFail,
  needsTokenizer: budgetNeedsTokenizer,
  // A map's raw collection holds failed units too; a reduce step integrates the ok ones and names the rest.
  lint: ({ config, producerOf }) => [
    ...Object.values(config.bindings).flatMap((ref) => (producerOf(ref)?.units
      ? [{ code: 'map-read-without-reduce', severity: 'warning' as const, message: `This step reads the map "${parseRef(ref).name}" directly; a reduce step integrates only the ok units and names the failed ones.` }]
      : [])),
    ...toolChoiceProblems(config),
  ],
  fields: [
    { kind: 'bindings', key: 'bindings', label: 'Reads' },
    { kind: 'textarea', key: 'system', label: 'System message', rows: 3, template: true },
    { kind: 'textarea', key: 'prompt', label: 'Prompt template', rows: 8, template: true },
    { kind: 'json', key: 'outputSchema', label: 'Output schema', schemaHint: 'jsonSchema' },
    { kind: 'json', key: 'tools', label: 'Tools ([{name, description, parameters}]; the step runs none)', schemaHint: 'json' },
    { kind: 'json', key: 'toolChoice', label: 'Tool choice ("auto", "required" or {"name": …}; forced: the call\'s arguments are the output)', schemaHint: 'json' },
    { kind: 'profile', key: 'profile', label: 'Endpoint profile' },
    { kind: 'text', key: 'model', label: 'Model (blank: the profile default)' },
    { kind: 'number', key: 'temperature', label: 'Temperature', min: 0, max: 2, step: 0.1 },
    { kind: 'number', key: 'maxTokens', label: 'Max output tokens', min: 1 },
    { kind: 'number', key: 'retries', label: 'Retries with feedback', min: 0, max: 5 },
    { kind: 'onFail', key: 'onFail', label: 'When retries are spent' },
  ],
  summary: (cfg) => [[cfg.profile ? `profile: ${cfg.profile}` : '', cfg.model ? `model: ${cfg.model}` : ''].filter(Boolean).join(' · ') || 'model: profile default', ...outputSummary(cfg)],
  // A forced tool's parameters are what the step outputs.
  outputSchema: (cfg) => forcedToolSchema(cfg) ?? cfg.outputSchema,
  schemas: (cfg) => [
    ...(cfg.outputSchema ? [{ path: ['outputSchema'], schema: cfg.outputSchema }] : []),
    ...(cfg.tools ?? []).map((t, i) => ({ path: ['tools', i, 'parameters'], schema: t.parameters })),
  ],
  // Not async: once the module is loaded (every step after the first), no await of its promise per step.
  run(ctx) {
    const input = { config: ctx.config, values: ctx.values, untrusted: ctx.untrusted };
    const loaded = modelCall.ready();
    return loaded ? loaded.runContractCall(ctx, input) : modelCall().then(({ runContractCall }) => runContractCall(ctx, input));
  },
});
