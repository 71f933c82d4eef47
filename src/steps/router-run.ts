import { getPath } from '../chain/refs.ts';
import { isEmptyValue, routesOnEmpty, type RouterConfig } from './router.ts';
import type { StepOutcome, StepRunContext } from './types.ts';

/**
 * A router's run (router.ts holds its config and definition), apart so the step registry, which
 * the designer's first paint carries, does not carry it.
 */

/**
 * Why there is no label, naming the binding and the field. The exported runtimes (TS and
 * Python `missingLabel`) word it the same: conformance compares failures.
 */
export function missingLabelMessage(field: string, bound: boolean): string {
  if (!bound) return `No label to branch on: nothing is bound as "value"${field ? `, so "${field}" cannot be read` : ''}`;
  return `No label to branch on: ${field ? `"${field}" is not in the value bound as "value"` : 'the value bound as "value" is undefined'}`;
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function routeOn(ctx: StepRunContext<RouterConfig>): StepOutcome {
  const { field, routes, defaultTo, onMissingLabel } = ctx.config;
  const bound = Object.hasOwn(ctx.config.bindings, 'value');
  const value = bound ? ctx.values.value : undefined;
  const label = field ? getPath(value, field.split('.')) : value;
  // A route on an empty value is this case's own answer: no label is then a branch, not a failure.
  if (label === undefined && onMissingLabel !== 'otherwise' && !routes.some(routesOnEmpty)) return { status: 'failed', failure: { code: 'missing_label', message: missingLabelMessage(field, bound) } };
  const match = routes.find((r) => (routesOnEmpty(r) ? isEmptyValue(label) : sameValue(r.equals, label)));
  const to = match?.to ?? defaultTo;
  const shown = JSON.stringify(label) ?? 'undefined';
  if (!to) return { status: 'failed', failure: { code: 'no_route', message: `No route for ${field || 'value'} = ${shown}` } };
  ctx.emit({ type: 'step.route', at: ctx.now(), stepId: ctx.step.id, label: shown, chosen: [to] });
  return { status: 'succeeded', output: { label, to }, chosen: [to], label: shown };
}
