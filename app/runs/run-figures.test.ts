import { describe, expect, it } from 'vitest';
import type { Chain } from '../../src/chain/index.ts';
import type { AttemptRecord, RunMeta, TraceEvent } from '../../src/trace/index.ts';
import type { RunView } from '../../src/trace/index.ts';
import { failureLabel, plannedUnitIds, reusedSteps, unitsOf } from './run-figures.ts';

const record = (usage: number, costUsd?: number) =>
  ({ messages: [], segments: [], params: { model: 'm', maxTokens: 1, structured: true, stream: false }, errors: [], latencyMs: 10, configHash: 'h', usage: { inputTokens: usage, outputTokens: 1 }, costUsd }) as AttemptRecord;

const chain: Chain = {
  format: 'seamscope.chain', version: 1, id: 'm', name: 'Map',
  inputs: [{ name: 'items', schema: { type: 'array' }, trust: 'trusted', required: true }],
  steps: [{ id: 'per', kind: 'map', name: 'Per', position: { x: 0, y: 0 }, config: { bindings: { items: 'inputs.items' }, unitIdField: 'id', prompt: 'x {unit}' } }],
};
const meta = { id: 'r', chain, inputs: { items: [{ id: 'A' }, { id: 'B' }, { id: 'C' }] } } as unknown as RunMeta;
const view = { steps: [], boundaries: [] } as RunView;

describe('run figures', () => {
  it('lists every planned unit: finished, retried, still out', () => {
    const events: TraceEvent[] = [
      { type: 'step.attempt', at: 1, stepId: 'per', attempt: 1, unit: 'B', record: record(5, 0.001) },
      { type: 'step.unit', at: 2, stepId: 'per', unitId: 'B', index: 1, status: 'ok' },
      { type: 'step.attempt', at: 3, stepId: 'per', attempt: 1, unit: 'C', record: record(7) },
    ];
    const planned = plannedUnitIds(meta, view, 'per');
    expect(planned).toEqual(['A', 'B', 'C']);
    expect(unitsOf(events, 'per', planned).map((u) => [u.unitId, u.status, u.tokens])).toEqual([['A', 'waiting', 0], ['B', 'ok', 6], ['C', 'running', 8]]);
    expect(unitsOf(events, 'per', planned)[1]?.costUsd).toBe(0.001);
  });

  it('names failures so malformed and endpoint errors read differently, and finds reused steps', () => {
    expect(failureLabel('schema_violation')).toBe('malformed: schema violation');
    expect(failureLabel('provider_error')).toBe('endpoint error');
    expect(failureLabel(undefined)).toBe('passed');
    expect([...reusedSteps([{ type: 'step.finished', at: 1, stepId: 'a', status: 'succeeded', latencyMs: 0, reused: true }])]).toEqual(['a']);
  });
});
