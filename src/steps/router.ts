import { lazyModule } from './lazy-module.ts';
import * as z from '../chain/zod-mini.ts';
import { bindingsField } from './common.ts';
import { defineStep, type BranchChoice } from './types.ts';

const routerRun = lazyModule(() => import('./router-run.ts'));

/**
 * Branches in code on a structured label from an earlier step: never a model call. The branch
 * itself is taken in router-run.ts, loaded on the first run.
 */
export const routerConfigSchema = z.object({
  bindings: bindingsField(),
  /** Dotted path into `value` holding the label, e.g. `category` or `insufficient_evidence`. */
  field: z._default(z.string().check(z.maxLength(200)), ''),
  /**
   * Tried in order. A route is taken when the label equals `equals`, or, with `when: 'empty'`,
   * when there is no label or it is empty (isEmptyValue): "was this optional value given?" is a
   * question a router answers in code, as it answers "which label?". Absent `when` means equals,
   * so chains saved before it keep their content hash.
   */
  routes: z._default(
    z.array(z.object({ equals: z.optional(z.unknown()), when: z.optional(z.enum(['empty'])), to: z.string().check(z.minLength(1)), label: z._default(z.string().check(z.maxLength(100)), '') })).check(z.maxLength(100)),
    [],
  ),
  /** Where to go when no route matches; null makes an unmatched label a failure. */
  defaultTo: z._default(z.nullable(z.string()), null),
  /**
   * A label that is not there (nothing bound as `value`, or `field` absent from it) fails the
   * step unless the chain says otherwise: silently taking "otherwise" is how a router drawn to
   * read the wrong binding went unnoticed. Absent means "fail" (no default written, so chains
   * saved before the option keep their content hash and their runs stay resumable).
   */
  onMissingLabel: z.optional(z.enum(['fail', 'otherwise'])),
});
export type RouterConfig = z.infer<typeof routerConfigSchema>;

/** A route label nobody typed: no value, or only blanks. */
export function isEmptyLabel(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/**
 * What a route on an empty value is taken on: a value not there (an optional input not given, a
 * field left out), null, "", [] or {}. A string of blanks is text someone gave, so it is not
 * empty (Dify and Prompt flow test emptiness the same way). The Python export writes the same test.
 */
export function isEmptyValue(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && Object.keys(value).length === 0;
}

/** Whether a route is taken on an empty value rather than on a label it equals. */
export const routesOnEmpty = (r: { when?: 'empty' | undefined }) => r.when === 'empty';

/** How a route reads on its edge and in the summary when nobody labelled it. */
const routeShown = (r: RouterConfig['routes'][number]) => r.label || (routesOnEmpty(r) ? 'empty' : `= ${JSON.stringify(r.equals)}`);

/**
 * A branch to `targetId`: a route on a label (the edge shows the label as typed), or the
 * otherwise branch. An empty label or one already routed makes no branch (the same config back).
 */
function addBranch(cfg: RouterConfig, targetId: string, choice: BranchChoice): RouterConfig {
  if (choice.kind === 'otherwise') return cfg.defaultTo === targetId ? cfg : { ...cfg, defaultTo: targetId };
  const { equals } = choice;
  if (isEmptyLabel(equals) || cfg.routes.some((r) => !routesOnEmpty(r) && JSON.stringify(r.equals) === JSON.stringify(equals))) return cfg;
  const label = typeof equals === 'string' ? equals : JSON.stringify(equals);
  return { ...cfg, routes: [...cfg.routes, { equals, to: targetId, label }] };
}

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
    ...cfg.routes.map((r) => ({ label: routeShown(r), to: r.to, kind: 'route' as const })),
    ...(cfg.defaultTo ? [{ label: 'otherwise', to: cfg.defaultTo, kind: 'route' as const }] : []),
  ],
  terminal: false,
  produces: { by: 'code' },
  python: {
    form: 'branch', spec: 'RouterSpec',
    branch: (cfg) => ({ field: cfg.field, routes: cfg.routes, defaultTo: cfg.defaultTo, failOnMissing: cfg.onMissingLabel !== 'otherwise' }),
  },
  consumes: (cfg) => (cfg.bindings.value ? [cfg.field ? `${cfg.bindings.value}.${cfg.field}` : cfg.bindings.value] : []),
  // With a route on an empty value, a value that is not there is that route's case, not a failure.
  runsWithout: (cfg) => (cfg.routes.some(routesOnEmpty) ? ['value'] : []),
  // Control flow changes only through a schema field a model step produced, never raw input. A
  // router whose every route asks only whether the value is empty is the exception: the input's
  // text cannot steer it, only whether the person gave one.
  lint: ({ config, readsUntrusted }) => [
    ...(config.bindings.value !== undefined && readsUntrusted(config.bindings.value) && !(config.routes.length > 0 && config.routes.every(routesOnEmpty))
      ? [{ code: 'route-on-untrusted-text', severity: 'error' as const, message: 'This router branches on untrusted input directly: control flow must change only through a schema field a model step produced (a router whose routes only test for an empty value may read it).' }]
      : []),
    ...config.routes.filter((r) => !routesOnEmpty(r) && isEmptyLabel(r.equals)).map((r) => ({
      code: 'empty-route-label', severity: 'error' as const,
      message: `The route to ${r.to} has no label: it would be taken only on an empty label. Type the label it is taken on, make it a route on an empty value (when: empty), or make ${r.to} the otherwise branch.`,
    })),
    ...(config.routes.filter(routesOnEmpty).length > 1
      ? [{ code: 'duplicate-empty-route', severity: 'error' as const, message: 'More than one route is taken on an empty value: only the first can ever be taken.' }]
      : []),
  ],
  fields: [
    { kind: 'bindings', key: 'bindings', label: 'Reads (value)' },
    { kind: 'text', key: 'field', label: 'Label field', placeholder: 'category' },
    { kind: 'routes', key: 'routes', label: 'Routes' },
    { kind: 'stepRef', key: 'defaultTo', label: 'Otherwise go to', emptyLabel: '(nothing: an unmatched label fails the run)' },
    { kind: 'select', key: 'onMissingLabel', label: 'When there is no label', options: ['fail', 'otherwise'] },
  ],
  // An edge drawn from a router is a branch on the label the person types or picks; only an
  // explicit choice makes "otherwise" (the first edge drawn once became it, by surprise).
  labelledBranches: {
    labelSource: (cfg) => (cfg.bindings.value ? { ref: cfg.bindings.value, field: cfg.field } : null),
    taken: (cfg) => ({ labels: cfg.routes.filter((r) => !routesOnEmpty(r)).map((r) => r.equals), otherwise: cfg.defaultTo }),
    add: addBranch,
    carries: (cfg) => cfg.bindings.value ?? null,
  },
  summary: (cfg) => [`on ${cfg.field || '(value)'}`, ...cfg.routes.map((r) => `${routesOnEmpty(r) ? 'empty' : JSON.stringify(r.equals)} → ${r.to}`), ...(cfg.defaultTo ? [`otherwise → ${cfg.defaultTo}`] : [])],
  outputSchema: () => ({ type: 'object', properties: { label: {}, to: { type: 'string' } } }),
  async run(ctx) {
    const { routeOn } = await routerRun();
    return routeOn(ctx);
  },
});
