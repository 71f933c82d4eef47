import * as z from '../chain/zod-mini.ts';
import { bindingsField } from './common.ts';
import { defineStep } from './types.ts';

/** A terminal: the run's result is whatever `value` reads. */
export const outputConfigSchema = z.object({ bindings: bindingsField() });
export type OutputConfig = z.infer<typeof outputConfigSchema>;

export const outputStep = defineStep<'output', OutputConfig>({
  kind: 'output',
  title: 'Output',
  group: 'Terminal',
  description: 'Ends the run and returns a value.',
  config: outputConfigSchema,
  defaults: () => ({ bindings: {} }),
  bindings: (cfg) => cfg.bindings,
  expectedBindings: () => [{ name: 'value', required: true, connect: 'the step whose result the run returns' }],
  branches: () => [],
  terminal: true,
  produces: { by: 'code' },
  python: { form: 'call', spec: 'StepSpec', method: 'output' },
  fields: [{ kind: 'bindings', key: 'bindings', label: 'Returns (value)' }],
  summary: (cfg) => [cfg.bindings.value ? `returns ${cfg.bindings.value}` : 'returns nothing yet'],
  outputSchema: () => null,
  async run(ctx) {
    return { status: 'succeeded', output: ctx.values.value, terminal: 'output' };
  },
});
