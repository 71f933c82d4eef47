import { describe, expect, expectTypeOf, it } from 'vitest';
import { asRunId, asStepId, type RunId, type StepId } from '../chain/ids.ts';
import { twoStepChain } from '../testing/chain-fixtures.ts';
import { chainNeedsTokenizer, stepRegistry, typedStep, type StepConfig, type TypedStep } from './index.ts';
import type { MapConfig } from './map.ts';
import type { ModelConfig } from './model.config.ts';
import type { TemplateConfig } from './template.ts';
import { idempotencyKey } from './webhook-run.ts';

describe('chainNeedsTokenizer', () => {
  it('asks each definition: a split always, a model call only with an input budget', () => {
    const chain = twoStepChain();
    expect(chainNeedsTokenizer(chain)).toBe(false);
    const budgeted = { steps: chain.steps.map((s, i) => (i === 0 ? { ...s, config: { ...s.config, inputBudget: 500 } } : s)) };
    expect(chainNeedsTokenizer(budgeted)).toBe(true);
    expect(chainNeedsTokenizer({ steps: [{ id: 's', kind: 'split', name: '', position: { x: 0, y: 0 }, config: { bindings: { units: 'inputs.document' } } }] })).toBe(true);
  });
});

describe('TypedStep, the registry-derived union', () => {
  it('has one member per built-in kind, each with its own config type and a branded id', () => {
    expectTypeOf<TypedStep['kind']>().toEqualTypeOf<'model' | 'map' | 'reduce' | 'retrieve' | 'split' | 'assemble' | 'gate' | 'router' | 'output' | 'abstain' | 'escalate' | 'webhook' | 'template'>();
    expectTypeOf<StepConfig<'map'>>().toEqualTypeOf<MapConfig>();
    expectTypeOf<StepConfig<'template'>>().toEqualTypeOf<TemplateConfig>();
    expectTypeOf<TypedStep['id']>().toEqualTypeOf<StepId>();
  });

  it('narrows on kind to the config its kind parsed, defaults filled in, with no cast', () => {
    const typed = typedStep(twoStepChain().steps[0]!);
    expect(typed?.kind).toBe('model');
    if (typed?.kind !== 'model') throw new Error('expected a model step');
    expectTypeOf(typed.config).toEqualTypeOf<ModelConfig>();
    expect(typed.config).toMatchObject({ retries: 1, onFail: 'abort', inputBudget: 0, truncate: null });
    expect(typed.def).toBe(stepRegistry.get('model'));
    expect(typedStep({ id: 'x', kind: 'nope', name: '', position: { x: 0, y: 0 }, config: {} })).toBeNull();
    expect(typedStep({ id: 'x', kind: 'model', name: '', position: { x: 0, y: 0 }, config: { prompt: 7 } })).toBeNull();
  });

  it('keeps step and run ids apart: an idempotency key takes a RunId and a StepId, in that order', () => {
    const run: RunId = asRunId('run-1');
    const step: StepId = asStepId('send');
    expect(idempotencyKey(run, step)).toMatch(/^seamscope-/);
    // @ts-expect-error a plain string is not a RunId
    idempotencyKey('run-1', step);
    // @ts-expect-error the ids swapped
    idempotencyKey(step, run);
  });
});
