import { lazyModule } from './lazy-module.ts';
import * as z from '../chain/zod-mini.ts';
import { bindingsField } from './common.ts';
import { defineStep } from './types.ts';

const assembleCore = lazyModule(() => import('./assemble-core.ts'));

/**
 * Assembly after a split → map: the groups' rewrites merged back in unit order into
 * one document, mechanically. A group counts only when its result returned exactly the ids it
 * was given; otherwise its place holds a named placeholder, never a silent gap. Optional
 * `replacements` (a second map over some of the groups: the two-pass repair) replace the
 * groups they rewrote, on the same rule. The same function folds a live run's units into the
 * document so far (src/steps/assembly-progress.ts). The merge is in assemble-core.ts, loaded
 * on the first run, not with the registry.
 */
export const assembleConfigSchema = z.object({
  bindings: bindingsField(),
  /** Dotted path to the list of rewritten units inside each group's output. */
  itemsPath: z._default(z.string().check(z.minLength(1), z.maxLength(200)), 'clauses'),
  /** The unit id field of each listed item. */
  idField: z._default(z.string().check(z.minLength(1), z.maxLength(100)), 'id'),
  /** The rewritten text field of each listed item. */
  textField: z._default(z.string().check(z.minLength(1), z.maxLength(100)), 'rewrite'),
});
export type AssembleConfig = z.infer<typeof assembleConfigSchema>;
export type { Assembly, AssembledClause, AssemblyGroup } from './assemble-core.ts';

export const assembleStep = defineStep<'assemble', AssembleConfig>({
  kind: 'assemble',
  title: 'Assemble',
  group: 'Control',
  description: 'Merges the groups’ rewrites back in unit order, naming any group that is missing.',
  config: assembleConfigSchema,
  defaults: () => assembleConfigSchema.parse({}),
  bindings: (cfg) => cfg.bindings,
  expectedBindings: () => [
    { name: 'groups', required: true, connect: 'the split step whose groups it merges' },
    { name: 'results', required: true, connect: 'the map (or its id check) with each group’s rewrite' },
    { name: 'replacements', required: false, connect: 'a second map whose groups replace the first' },
  ],
  branches: () => [],
  terminal: false,
  produces: { by: 'code' },
  python: { form: 'call', spec: 'AssembleSpec', method: 'assemble', fields: (cfg) => ({ itemsPath: cfg.itemsPath, idField: cfg.idField, textField: cfg.textField }) },
  fields: [
    { kind: 'bindings', key: 'bindings', label: 'Reads (groups, results, replacements?)' },
    { kind: 'text', key: 'itemsPath', label: 'Units in each group’s output' },
    { kind: 'text', key: 'idField', label: 'Unit id field' },
    { kind: 'text', key: 'textField', label: 'Rewritten text field' },
  ],
  summary: (cfg) => [`merges ${cfg.bindings.results ?? '(no results bound)'} in unit order`, cfg.bindings.replacements ? `replaced by ${cfg.bindings.replacements}` : 'missing groups named'],
  outputSchema: () => ({
    type: 'object',
    properties: {
      document: { type: 'string' },
      clauses: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' }, group_key: { type: 'string' }, source: { type: 'string' }, rewrite: { type: 'string' } } } },
      groups: { type: 'array', items: { type: 'object', properties: { group_key: { type: 'string' }, status: { enum: ['ok', 'replaced', 'missing'] } } } },
      group_count: { type: 'integer' }, assembled_count: { type: 'integer' }, complete: { type: 'boolean' },
      missing_groups: { type: 'array', items: { type: 'string' } }, replaced_groups: { type: 'array', items: { type: 'string' } },
    },
  }),
  async run(ctx) {
    const { assembleGroups, okOutputsOf, sourceGroupsOf } = await assembleCore();
    const groups = sourceGroupsOf(ctx.values.groups);
    if (!groups) return { status: 'failed', failure: { code: 'missing_input', message: 'assemble needs "groups" bound to a split step (its groups with group_key and unit_ids)' } };
    const replacements = ctx.values.replacements === undefined ? new Map<string, unknown>() : okOutputsOf(ctx.values.replacements);
    return { status: 'succeeded', output: assembleGroups(groups, okOutputsOf(ctx.values.results), replacements, ctx.config) };
  },
});
