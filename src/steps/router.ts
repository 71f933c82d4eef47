import { z } from 'zod';
import { getPath } from '../chain/refs.ts';
import { bindingsSchema } from './common.ts';
import { defineStep } from './types.ts';

/** Branches in code on a structured label from an earlier step: never a model call. */
export const routerConfigSchema = z.object({
  bindings: bindingsSchema.default(() => ({}) as Record<string, string>),
  /** Dotted path into `value` holding the label, e.g. `category` or `insufficient_evidence`. */
  field: z.string().max(200).default(''),
  routes: z.array(z.object({ equals: z.unknown(), to: z.string().min(1), label: z.string().max(100).default('') })).max(100).default([]),
  /** Where to go when no route matches; null makes an unmatched label a failure. */
  defaultTo: z.string().nullable().default(null),
});
export type RouterConfig = z.infer<typeof routerConfigSchema>;

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export const routerStep = defineStep<'router', RouterConfig>({
  kind: 'router',
  title: 'Router',
  group: 'Control',
  description: 'Branch in code on a label an earlier step produced.',
  config: routerConfigSchema,
  defaults: () => ({ bindings: {}, field: '', routes: [], defaultTo: null }),
  bindings: (cfg) => cfg.bindings,
  expectedBindings: () => [{ name: 'value', required: true, connect: 'the step whose label it branches on' }],
  branches: (cfg) => [
    ...cfg.routes.map((r) => ({ label: r.label || `= ${JSON.stringify(r.equals)}`, to: r.to, kind: 'route' as const })),
    ...(cfg.defaultTo ? [{ label: 'otherwise', to: cfg.defaultTo, kind: 'route' as const }] : []),
  ],
  terminal: false,
  fields: [
    { kind: 'bindings', key: 'bindings', label: 'Reads (value)' },
    { kind: 'text', key: 'field', label: 'Label field', placeholder: 'category' },
    { kind: 'routes', key: 'routes', label: 'Routes' },
    { kind: 'stepRef', key: 'defaultTo', label: 'Otherwise go to', emptyLabel: '(nothing: an unmatched label fails the run)' },
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
    const { field, routes, defaultTo } = ctx.config;
    const label = field ? getPath(ctx.values.value, field.split('.')) : ctx.values.value;
    const match = routes.find((r) => sameValue(r.equals, label));
    const to = match?.to ?? defaultTo;
    const shown = JSON.stringify(label) ?? 'undefined';
    if (!to) return { status: 'failed', failure: { code: 'no_route', message: `No route for ${field || 'value'} = ${shown}` } };
    ctx.emit({ type: 'step.route', at: ctx.now(), stepId: ctx.step.id, label: shown, chosen: [to] });
    return { status: 'succeeded', output: { label, to }, chosen: [to], label: shown };
  },
});
