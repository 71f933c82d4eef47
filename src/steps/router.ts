import { lazyModule } from './lazy-module.ts';
import * as z from 'zod';
import { bindingsField } from './common.ts';
import { defineStep } from './types.ts';

const routerRun = lazyModule(() => import('./router-run.ts'));

/**
 * Branches in code on a structured label from an earlier step: never a model call. The branch
 * itself is taken in router-run.ts, loaded on the first run.
 */
export const routerConfigSchema = z.object({
  bindings: bindingsField(),
  /** Dotted path into `value` holding the label, e.g. `category` or `insufficient_evidence`. */
  field: z.string().max(200).default(''),
  routes: z.array(z.object({ equals: z.unknown(), to: z.string().min(1), label: z.string().max(100).default('') })).max(100).default([]),
  /** Where to go when no route matches; null makes an unmatched label a failure. */
  defaultTo: z.string().nullable().default(null),
  /**
   * A label that is not there (nothing bound as `value`, or `field` absent from it) fails the
   * step unless the chain says otherwise: silently taking "otherwise" is how a router drawn to
   * read the wrong binding went unnoticed. Absent means "fail" (no default written, so chains
   * saved before the option keep their content hash and their runs stay resumable).
   */
  onMissingLabel: z.enum(['fail', 'otherwise']).optional(),
});
export type RouterConfig = z.infer<typeof routerConfigSchema>;

export const routerStep = defineStep<'router', RouterConfig>({
  kind: 'router',
  title: 'Router',
  group: 'Control',
  description: 'Branch in code on a label an earlier step produced.',
  config: routerConfigSchema,
  defaults: () => ({ bindings: {}, field: '', routes: [], defaultTo: null, onMissingLabel: 'fail' as const }),
  bindings: (cfg) => cfg.bindings,
  expectedBindings: () => [{ name: 'value', required: true, connect: 'the step whose label it branches on' }],
  branches: (cfg) => [
    ...cfg.routes.map((r) => ({ label: r.label || `= ${JSON.stringify(r.equals)}`, to: r.to, kind: 'route' as const })),
    ...(cfg.defaultTo ? [{ label: 'otherwise', to: cfg.defaultTo, kind: 'route' as const }] : []),
  ],
  terminal: false,
  produces: { by: 'code' },
  python: {
    form: 'branch', spec: 'RouterSpec',
    branch: (cfg) => ({ field: cfg.field, routes: cfg.routes, defaultTo: cfg.defaultTo, failOnMissing: cfg.onMissingLabel !== 'otherwise' }),
  },
  consumes: (cfg) => (cfg.bindings.value ? [cfg.field ? `${cfg.bindings.value}.${cfg.field}` : cfg.bindings.value] : []),
  // Control flow changes only through a schema field a model step produced, never raw input.
  lint: ({ config, readsUntrusted }) => (config.bindings.value !== undefined && readsUntrusted(config.bindings.value)
    ? [{ code: 'route-on-untrusted-text', severity: 'error', message: 'This router branches on untrusted input directly: control flow must change only through a schema field a model step produced.' }]
    : []),
  fields: [
    { kind: 'bindings', key: 'bindings', label: 'Reads (value)' },
    { kind: 'text', key: 'field', label: 'Label field', placeholder: 'category' },
    { kind: 'routes', key: 'routes', label: 'Routes' },
    { kind: 'stepRef', key: 'defaultTo', label: 'Otherwise go to', emptyLabel: '(nothing: an unmatched label fails the run)' },
    { kind: 'select', key: 'onMissingLabel', label: 'When there is no label', options: ['fail', 'otherwise'] },
  ],
  // An edge drawn from a router is a branch: the first becomes "otherwise", later ones new
  // routes whose label value the person fills in.
  connectTo: (cfg, targetId) => {
    if (cfg.defaultTo === targetId || cfg.routes.some((r) => r.to === targetId)) return cfg;
    if (cfg.defaultTo === null) return { ...cfg, defaultTo: targetId };
    return { ...cfg, routes: [...cfg.routes, { equals: '', to: targetId, label: '' }] };
  },
  summary: (cfg) => [`on ${cfg.field || '(value)'}`, ...cfg.routes.map((r) => `${JSON.stringify(r.equals)} → ${r.to}`), ...(cfg.defaultTo ? [`otherwise → ${cfg.defaultTo}`] : [])],
  outputSchema: () => ({ type: 'object', properties: { label: {}, to: { type: 'string' } } }),
  async run(ctx) {
    const { routeOn } = await routerRun();
    return routeOn(ctx);
  },
});
