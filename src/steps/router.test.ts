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

describe('a route on an empty value', () => {
  const onEmpty = { bindings: { value: 'inputs.country' }, routes: [{ equals: 'fr', to: 'french', label: 'fr' }, { when: 'empty' as const, to: 'plain', label: '' }], defaultTo: 'local' };
  it('is taken when the value is not there, null, "", [] or {}, and not on blanks, 0 or false', async () => {
    for (const value of [undefined, null, '', [], {}]) expect(await run(onEmpty, { value }), JSON.stringify(value)).toMatchObject({ status: 'succeeded', chosen: ['plain'] });
    for (const value of [' ', 0, false, 'de', [1], { a: 1 }]) expect(await run(onEmpty, { value }), JSON.stringify(value)).toMatchObject({ status: 'succeeded', chosen: ['local'] });
    expect(await run(onEmpty, { value: 'fr' })).toMatchObject({ chosen: ['french'] });
  });

  it('reads a field left out as empty, where without the route it would fail as a missing label', async () => {
    const cfg = { ...onEmpty, bindings: { value: 'steps.m' }, field: 'country' };
    expect(await run(cfg, { value: { city: 'Lyon' } })).toMatchObject({ status: 'succeeded', chosen: ['plain'], label: 'undefined' });
    expect(await run({ ...cfg, routes: onEmpty.routes.slice(0, 1) }, { value: { city: 'Lyon' } })).toMatchObject({ status: 'failed', failure: { code: 'missing_label' } });
  });

  it('lets the engine run the router without the value (and only a router that has such a route)', () => {
    expect(routerStep.runsWithout?.(routerConfigSchema.parse(onEmpty))).toEqual(['value']);
    expect(routerStep.runsWithout?.(routerConfigSchema.parse({ ...onEmpty, routes: onEmpty.routes.slice(0, 1) }))).toEqual([]);
  });

  it('shows as "empty" on its edge and in the summary, and is no label an edge drawn later could take', () => {
    const cfg = routerConfigSchema.parse(onEmpty);
    expect(routerStep.branches(cfg).map((b) => b.label)).toEqual(['fr', 'empty', 'otherwise']);
    expect(routerStep.summary(cfg)).toContain('empty → plain');
    expect(routerStep.labelledBranches?.taken(cfg).labels).toEqual(['fr']);
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
  it('a route on an empty value needs no label, may read an untrusted input when every route is one, and is one per router', () => {
    const base = routerConfigSchema.parse({ bindings: { value: 'inputs.country' } });
    const emptyRoute = { equals: undefined, when: 'empty' as const, to: 'plain', label: '' };
    expect(lint({ ...base, routes: [emptyRoute], defaultTo: 'local' })).toEqual([]);
    const untrusted = (config: RouterConfig) => routerStep.lint?.({ step: { id: 'r', kind: 'router', name: 'R', position: { x: 0, y: 0 }, config }, config, chain: { format: 'seamscope.chain', version: 1, id: 'c', name: 'c', inputs: [], steps: [] }, producerOf: () => undefined, readsUntrusted: () => true }) ?? [];
    expect(untrusted({ ...base, routes: [emptyRoute], defaultTo: 'local' })).toEqual([]);
    expect(untrusted({ ...base, routes: [emptyRoute, { equals: 'fr', to: 'french', label: 'fr' }] }).map((f) => f.code)).toEqual(['route-on-untrusted-text']);
    expect(lint({ ...base, routes: [emptyRoute, { ...emptyRoute, to: 'other' }] }).map((f) => f.code)).toEqual(['duplicate-empty-route']);
  });
});
