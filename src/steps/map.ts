import { lazyModule } from './lazy-module.ts';
import * as z from '../chain/zod-mini.ts';
import { getPath } from '../chain/refs.ts';
import { bindingsField } from './common.ts';
import { budgetNeedsTokenizer, modelConfigSchema, modelContract } from './model.config.ts';
import { defineStep } from './types.ts';
import { isRecord } from '../files/json-value.ts';

const mapRun = lazyModule(() => import('./map-run.ts'));

/**
 * Fan-out: one contract call per unit of a collection, with bounded concurrency. Each unit's
 * result is typed `{unit_id, status, output, error_detail}`; a failed unit is data and never
 * aborts the batch. An empty collection stops the run: never invent the batch.
 */
export const mapConfigSchema = z.extend(modelConfigSchema, {
  bindings: bindingsField(),
  /** The name the template uses for the current unit, e.g. `{unit}`. */
  itemName: z._default(z.string().check(z.regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/)), 'unit'),
  /** Dotted path to a unit's id inside each item; blank numbers the units from 1. */
  unitIdField: z._default(z.string().check(z.maxLength(200)), ''),
  concurrency: z._default(z.number().check(z.int(), z.minimum(1), z.maximum(64)), 4),
});
export type MapConfig = z.infer<typeof mapConfigSchema>;

export interface UnitResult {
  unit_id: string;
  status: 'ok' | 'error';
  output: unknown;
  error_detail: { code: string; message: string } | null;
}

/** The JSON Schema of a map's output, for lint, completion and the reduce step. */
export function mapOutputSchema(unitSchema: Record<string, unknown> | null): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      results: {
        type: 'array',
        items: {
          type: 'object',
          properties: { unit_id: { type: 'string' }, status: { enum: ['ok', 'error'] }, output: unitSchema ?? {}, error_detail: {} },
          required: ['unit_id', 'status', 'output', 'error_detail'],
        },
      },
      ok_count: { type: 'integer' },
      error_count: { type: 'integer' },
    },
    required: ['results', 'ok_count', 'error_count'],
  };
}

/** A unit's id: the item's `unitIdField` when it has one, else its position from 1. */
export function unitIdOf(item: unknown, index: number, unitIdField: string): string {
  const raw = unitIdField ? getPath(item, unitIdField.split('.')) : undefined;
  return raw === undefined || raw === null ? String(index + 1) : String(raw);
}

/**
 * The items a map runs: all of them, or, when `only` is bound, those whose unit id it names
 * (a list of ids, or of records carrying the unit id field, such as a reader's defect list),
 * each once, in the collection's order. Null when `only` cannot select: it is not a list, or
 * there is no unit id field to match on (positions would shift). The run says which. Inside
 * each unit the template's `{only}` is just the entries naming that unit (its own defects).
 */
export function selectUnits(items: readonly unknown[], unitIdField: string, only: unknown): { item: unknown; id: string }[] | null {
  const all = items.map((item, index) => ({ item, id: unitIdOf(item, index, unitIdField) }));
  if (only === undefined) return all;
  if (!unitIdField || !Array.isArray(only)) return null;
  const path = unitIdField.split('.');
  const wanted = new Set(only.map((v) => (isRecord(v) ? getPath(v, path) : v)).filter((v) => v !== undefined && v !== null).map(String));
  return all.filter((u) => wanted.has(u.id));
}

export const mapStep = defineStep<'map', MapConfig>({
  kind: 'map',
  title: 'Map',
  group: 'Model',
  description: 'Runs a contract call over each unit of a collection; failed units are data, not aborts.',
  config: mapConfigSchema,
  defaults: () => mapConfigSchema.parse({
    prompt: 'Summarise this unit:\n\n{unit}',
    outputSchema: { type: 'object', properties: { summary: { type: 'string' } }, required: ['summary'], additionalProperties: false },
  }),
  bindings: (cfg) => cfg.bindings,
  expectedBindings: () => [
    { name: 'items', required: true, connect: 'the step or input holding the collection to fan out over' },
    { name: 'only', required: false, connect: 'the list naming the units to run (ids, or records with the unit id field)' },
  ],
  branches: () => [],
  templateNames: (cfg) => [cfg.itemName],
  terminal: false,
  produces: { by: 'model', contract: modelContract },
  python: { form: 'map', spec: 'MapSpec', fields: (cfg) => ({ itemName: cfg.itemName, unitIdField: cfg.unitIdField, concurrency: cfg.concurrency }) },
  units: {
    ids: (cfg, values) => {
      const selected = Array.isArray(values.items) ? selectUnits(values.items, cfg.unitIdField, values.only) : null;
      return selected ? selected.map((u) => u.id) : null;
    },
  },
  onFail: (cfg) => cfg.onFail,
  needsTokenizer: budgetNeedsTokenizer,
  fields: [
    { kind: 'bindings', key: 'bindings', label: 'Reads (items = the collection)' },
    { kind: 'text', key: 'itemName', label: 'Unit name in the template' },
    { kind: 'text', key: 'unitIdField', label: 'Unit id field' },
    { kind: 'textarea', key: 'system', label: 'System message', rows: 3, template: true },
    { kind: 'textarea', key: 'prompt', label: 'Prompt per unit', rows: 6, template: true },
    { kind: 'json', key: 'outputSchema', label: 'Output schema per unit', schemaHint: 'jsonSchema' },
    { kind: 'number', key: 'concurrency', label: 'Units at once', min: 1, max: 64 },
    { kind: 'number', key: 'maxTokens', label: 'Max output tokens', min: 1 },
    { kind: 'number', key: 'retries', label: 'Retries with feedback', min: 0, max: 5 },
  ],
  summary: (cfg) => [`over ${cfg.bindings.items ?? '(no items bound)'}`, `${cfg.concurrency} at once`, 'per unit: ok | error'],
  outputSchema: (cfg) => mapOutputSchema(cfg.outputSchema),
  schemas: (cfg) => (cfg.outputSchema ? [{ path: ['outputSchema'], schema: cfg.outputSchema }] : []),
  async run(ctx) {
    // The fan-out and the call machinery load on the first run, not with the registry (the designer never needs them).
    const { runMap } = await mapRun();
    return runMap(ctx);
  },
});
