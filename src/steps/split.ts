import { lazyModule } from './lazy-module.ts';
import * as z from '../chain/zod-mini.ts';
import { stringifyForPrompt } from '../chain/template.ts';
import { bindingsField } from './common.ts';
import { defineStep } from './types.ts';

const splitUnits = lazyModule(() => import('./split-units.ts'));

const partition = lazyModule(() => import('./partition.ts'));

/**
 * Partitions units (clauses, sections) into groups sized from the output cap, the window and
 * the shared context paid once per group. Whole sections stay together unless one
 * alone cannot fit; group keys derive from the unit ids, so a retry regroups identically and a
 * failed group can be re-run on its own. The grouping is in split-units.ts, loaded on the first
 * run: the registry (and so the designer's first paint) carries no sectioning or packing.
 */
export const splitConfigSchema = z.object({
  bindings: bindingsField(),
  /** Output cap per call in tokens; 0 takes the profile's cap. */
  outputCap: z._default(z.number().check(z.int(), z.minimum(0)), 0),
  /** Context window in tokens; 0 takes the profile's window. */
  window: z._default(z.number().check(z.int(), z.minimum(0)), 0),
  /** Output tokens expected per input token (rewrites run ~20% longer). */
  expansion: z._default(z.number().check(z.positive(), z.maximum(20)), 1.2),
  /** Share of the cap a group may plan to use, leaving room for a mis-estimated length. */
  headroom: z._default(z.number().check(z.positive(), z.maximum(1)), 0.6),
  /**
   * Exactly this many groups, balanced by tokens (a granularity chosen from the planner); 0 sizes
   * groups from the cap and the window instead. Sections stay whole where they can either way.
   */
  groups: z._default(z.number().check(z.int(), z.minimum(0), z.maximum(10_000)), 0),
});
export type SplitConfig = z.infer<typeof splitConfigSchema>;

export const splitStep = defineStep<'split', SplitConfig>({
  kind: 'split',
  title: 'Split',
  group: 'Control',
  description: 'Groups units so each group’s output fits the cap, keeping sections whole, with stable group keys.',
  config: splitConfigSchema,
  defaults: () => splitConfigSchema.parse({}),
  bindings: (cfg) => cfg.bindings,
  expectedBindings: () => [
    { name: 'units', required: true, connect: 'the units to group' },
    { name: 'shared', required: false, connect: 'the context every group is sent with' },
  ],
  branches: () => [],
  terminal: false,
  produces: { by: 'code' },
  coverage: { kind: 'partition', binding: 'units' },
  python: { form: 'call', spec: 'SplitSpec', method: 'split', fields: (cfg) => ({ outputCap: cfg.outputCap, window: cfg.window, expansion: cfg.expansion, headroom: cfg.headroom, groups: cfg.groups }) },
  needsTokenizer: () => true,
  fields: [
    { kind: 'bindings', key: 'bindings', label: 'Reads (units, shared)' },
    { kind: 'number', key: 'outputCap', label: 'Output cap (0: profile)', min: 0 },
    { kind: 'number', key: 'window', label: 'Window (0: profile)', min: 0 },
    { kind: 'number', key: 'expansion', label: 'Output per input token', min: 0.1, step: 0.1 },
    { kind: 'number', key: 'headroom', label: 'Share of cap to plan for', min: 0.1, max: 1, step: 0.05 },
    { kind: 'number', key: 'groups', label: 'Groups (0: from the cap)', min: 0, max: 10_000 },
  ],
  summary: (cfg) => [cfg.groups > 0 ? `${cfg.groups} groups, balanced by tokens` : `groups sized from ${cfg.outputCap || 'the profile'} output cap × ${cfg.headroom}`, 'sections kept whole'],
  outputSchema: () => ({
    type: 'object',
    properties: {
      groups: { type: 'array', items: { type: 'object', properties: { group_key: { type: 'string' }, unit_ids: { type: 'array', items: { type: 'string' } }, units: { type: 'array' }, input_tokens: { type: 'integer' }, projected_output_tokens: { type: 'integer' } } } },
      group_count: { type: 'integer' }, unit_count: { type: 'integer' }, shared_tokens: { type: 'integer' },
    },
  }),
  async run(ctx) {
    const { countUnits, groupUnits, toUnitGroups, toUnits } = await splitUnits();
    const units = toUnits(ctx.values.units);
    if (typeof units === 'string') return { status: 'failed', failure: { code: 'missing_input', message: units } };
    if (units.length === 0) return { status: 'failed', failure: { code: 'missing_input', message: 'there are no units to split' } };
    const cap = ctx.config.outputCap || ctx.model.maxOutputTokens;
    const window = ctx.config.window || ctx.model.contextWindow || 128_000;
    const sharedTokens = ctx.values.shared === undefined ? 0 : ctx.countTokens(stringifyForPrompt(ctx.values.shared));
    if (sharedTokens >= window - cap * ctx.config.headroom) return { status: 'failed', failure: { code: 'over_budget', message: `the shared context (${sharedTokens} tokens) leaves no room in a ${window}-token window` } };
    const plan = { cap, window, sharedTokens, expansion: ctx.config.expansion, headroom: ctx.config.headroom };
    // A chosen number of groups partitions instead of packing (loaded here: the first paint carries no partitioning).
    const groups = ctx.config.groups > 0
      ? toUnitGroups((await partition()).partitionUnits(countUnits(units, ctx.countTokens), ctx.config.groups), plan)
      : groupUnits(units, plan, ctx.countTokens);
    return { status: 'succeeded', output: { groups, group_count: groups.length, unit_count: units.length, shared_tokens: sharedTokens, cap, window } };
  },
});
