import { describe, expect, it } from 'vitest';
import type { TraceEvent } from '../trace/events.ts';
import { routerConfigSchema, routerStep, type RouterConfig } from './router.ts';
import type { StepRunContext } from './types.ts';

function run(config: Partial<RouterConfig>, values: Record<string, unknown>) {
  const events: TraceEvent[] = [];
  const ctx = {
    config: routerConfigSchema.parse(config), values, events, step: { id: 'route', kind: 'router', name: 'Route', position: { x: 0, y: 0 }, config: {} },
    emit: (e: TraceEvent) => events.push(e), now: () => 0,
  } as unknown as StepRunContext<RouterConfig>;
  return routerStep.run(ctx);
}

const routes = [{ equals: 'legal', to: 'escalate', label: 'legal' }];

describe('router step', () => {
  it('branches on the label at `field`, and takes "otherwise" for a label no route names', async () => {
    const cfg = { bindings: { value: 'steps.classify' }, field: 'intent', routes, defaultTo: 'draft' };
    expect(await run(cfg, { value: { intent: 'legal' } })).toMatchObject({ status: 'succeeded', chosen: ['escalate'] });
    expect(await run(cfg, { value: { intent: 'refund' } })).toMatchObject({ status: 'succeeded', chosen: ['draft'] });
  });

  it('fails with missing_label when the field is not in the value, naming the field and the binding', async () => {
    const outcome = await run({ bindings: { value: 'steps.classify' }, field: 'intent', routes, defaultTo: 'draft' }, { value: { urgency: 'low' } });
    expect(outcome).toEqual({ status: 'failed', failure: { code: 'missing_label', message: 'No label to branch on: "intent" is not in the value bound as "value"' } });
  });

  it('fails with missing_label when nothing is bound as value (an edge that bound another name)', async () => {
    const outcome = await run({ bindings: { classify: 'steps.classify' }, field: 'intent', routes, defaultTo: 'draft' }, { classify: { intent: 'legal' } });
    expect(outcome).toEqual({ status: 'failed', failure: { code: 'missing_label', message: 'No label to branch on: nothing is bound as "value", so "intent" cannot be read' } });
  });

  it('takes "otherwise" for a missing label only when the chain says so', async () => {
    const outcome = await run({ bindings: { value: 'steps.classify' }, field: 'intent', routes, defaultTo: 'draft', onMissingLabel: 'otherwise' }, { value: {} });
    expect(outcome).toMatchObject({ status: 'succeeded', chosen: ['draft'], label: 'undefined' });
  });

  it('shows the choice in the inspector and defaults to failing (an older chain without the option fails too)', async () => {
    expect(await run({ bindings: { value: 'steps.classify' }, field: 'intent', routes, defaultTo: 'draft' }, { value: {} })).toMatchObject({ status: 'failed' });
    expect(routerStep.defaults().onMissingLabel).toBe('fail');
    expect(routerStep.fields.find((f) => f.key === 'onMissingLabel')).toMatchObject({ kind: 'select', options: ['fail', 'otherwise'] });
  });
});

describe('router lint', () => {
  const lint = (config: RouterConfig) => routerStep.lint?.({ step: { id: 'r', kind: 'router', name: 'R', position: { x: 0, y: 0 }, config }, config, chain: { format: 'seamscope.chain', version: 1, id: 'c', name: 'c', inputs: [], steps: [] }, producerOf: () => undefined, readsUntrusted: () => false }) ?? [];
  it('a route without a label is an error that names where it goes; a labelled one is not', () => {
    const base = routerConfigSchema.parse({ bindings: { value: 'steps.m' }, field: 'intent' });
    const findings = lint({ ...base, routes: [{ equals: '', to: 'billing_reply', label: '' }, { equals: ' ', to: 'tech', label: '' }, { equals: 'refund', to: 'refunds', label: 'refund' }] });
    expect(findings.map((f) => [f.code, f.severity])).toEqual([['empty-route-label', 'error'], ['empty-route-label', 'error']]);
    expect(findings[0]?.message).toContain('billing_reply');
    expect(lint({ ...base, routes: [{ equals: false, to: 'x', label: '' }, { equals: 0, to: 'y', label: '' }] })).toEqual([]);
  });
});
