import { lazyModule } from './lazy-module.ts';
import { parseRef } from '../chain/refs.ts';
import { budgetNeedsTokenizer, modelConfigSchema, modelContract, type ModelConfig } from './model.config.ts';
import type { UnitResult } from './map.ts';
import { fallbackTarget } from './common.ts';
import { defineStep } from './types.ts';
import { propertyOf } from '../files/json-value.ts';

const modelCall = lazyModule(() => import('./model-call.ts'));

/**
 * Integration over a map's typed collection: the template's `{collection}` is the ok units'
 * outputs plus the list of failed unit ids, never the raw units. Lint flags a
 * reduce that binds raw units.
 */
export const reduceConfigSchema = modelConfigSchema;
export type ReduceConfig = ModelConfig;

/** What `{collection}` renders as: typed summaries and the failures, named, so nothing is silently missing. */
export function typedCollection(value: unknown): { units: unknown[]; failed_units: { unit_id: string; error: string }[]; total: number } | null {
  const list = propertyOf(value, 'results');
  if (!Array.isArray(list)) return null;
  // A map's own output: the engine validated it against mapOutputSchema when the map ran.
  const results: UnitResult[] = list;
  return {
    units: results.filter((r) => r.status === 'ok').map((r) => ({ unit_id: r.unit_id, ...(r.output && typeof r.output === 'object' ? r.output : { output: r.output }) })),
    failed_units: results.filter((r) => r.status === 'error').map((r) => ({ unit_id: r.unit_id, error: r.error_detail?.message ?? 'failed' })),
    total: results.length,
  };
}

export const reduceStep = defineStep<'reduce', ReduceConfig>({
  kind: 'reduce',
  title: 'Reduce',
  group: 'Model',
  description: "Integrates a map's typed results (ok units and named failures), never the raw units.",
  config: reduceConfigSchema,
  defaults: () => reduceConfigSchema.parse({
    prompt: 'Integrate these unit summaries. Say which units failed.\n\n{collection}',
    outputSchema: { type: 'object', properties: { synthesis: { type: 'string' }, missing_units: { type: 'array', items: { type: 'string' } } }, required: ['synthesis', 'missing_units'], additionalProperties: false },
  }),
  bindings: (cfg) => cfg.bindings,
  expectedBindings: () => [{ name: 'collection', required: true, connect: 'the map step whose results it integrates' }],
  branches: (cfg) => {
    const target = fallbackTarget(cfg.onFail);
    return target ? [{ label: 'fallback', to: target, kind: 'fallback' as const }] : [];
  },
  terminal: false,
  produces: { by: 'model', contract: modelContract },
  python: { form: 'call', spec: 'ModelSpec', method: 'reduce', model: true },
  onFail: (cfg) => cfg.onFail,
  needsTokenizer: budgetNeedsTokenizer,
  lint: ({ config, producerOf }) => {
    const ref = config.bindings.collection;
    const typed = ref !== undefined && producerOf(ref)?.units !== undefined && parseRef(ref).path.length === 0;
    return typed ? [] : [{ code: 'reduce-reads-raw-units', severity: 'error', message: 'The integration step must read a map step’s typed collection (bind "collection" to steps.<map>), never the raw units.' }];
  },
  fields: [
    { kind: 'bindings', key: 'bindings', label: 'Reads (collection = a map step)' },
    { kind: 'textarea', key: 'system', label: 'System message', rows: 3, template: true },
    { kind: 'textarea', key: 'prompt', label: 'Prompt template', rows: 6, template: true },
    { kind: 'json', key: 'outputSchema', label: 'Output schema', schemaHint: 'jsonSchema' },
    { kind: 'number', key: 'maxTokens', label: 'Max output tokens', min: 1 },
    { kind: 'number', key: 'retries', label: 'Retries with feedback', min: 0, max: 5 },
    { kind: 'onFail', key: 'onFail', label: 'When retries are spent' },
  ],
  summary: (cfg) => [`integrates ${cfg.bindings.collection ?? '(no collection bound)'}`],
  outputSchema: (cfg) => cfg.outputSchema,
  schemas: (cfg) => (cfg.outputSchema ? [{ path: ['outputSchema'], schema: cfg.outputSchema }] : []),
  async run(ctx) {
    // The call machinery loads on the first run, not with the registry (the designer never needs it).
    const { runContractCall } = await modelCall();
    const collection = typedCollection(ctx.values.collection);
    if (!collection) return { status: 'failed', failure: { code: 'missing_input', message: 'reduce needs "collection" bound to a map step\'s output (its typed results)' } };
    return runContractCall(ctx, { config: ctx.config, values: { ...ctx.values, collection }, untrusted: ctx.untrusted });
  },
});
