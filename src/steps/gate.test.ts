import { describe, expect, it } from 'vitest';
import { createSchemaValidator } from '../engine/validate.ts';
import type { TraceEvent } from '../trace/events.ts';
import { gateStep, type GateConfig } from './gate.ts';
import { checkQuoteContainment } from './gate-run.ts';
import { selectAll } from './select-path.ts';
import type { StepRunContext } from './types.ts';

function fakeContext(config: GateConfig, values: Record<string, unknown>) {
  const events: TraceEvent[] = [];
  const validator = createSchemaValidator();
  const ctx = {
    config, values, events, step: { id: 'g', kind: 'gate', name: 'Gate', position: { x: 0, y: 0 }, config: {} },
    emit: (e: TraceEvent) => events.push(e), now: () => 0, validate: validator.validate,
  } as unknown as StepRunContext<GateConfig> & { events: TraceEvent[] };
  return ctx;
}

describe('gate step', () => {
  const source = 'A redetermination shall be available only if notice is filed\nby not later than the end of the 120-day period.';

  it('passes quotes found verbatim (whitespace-normalised) and passes the value through', async () => {
    const value = { sections: [{ quote: 'notice is filed by not later than the end of the 120-day period' }] };
    const ctx = fakeContext({ bindings: {}, check: { type: 'quoteContainment', quotesPath: 'sections[*].quote' }, onFail: 'abort' }, { value, source });
    expect(await gateStep.run(ctx)).toEqual({ status: 'succeeded', output: value });
    expect(ctx.events[0]).toMatchObject({ type: 'step.check', passed: true });
  });

  it('fails on an invented quote and names it', async () => {
    const value = { sections: [{ quote: 'within 90 days' }] };
    const ctx = fakeContext({ bindings: {}, check: { type: 'quoteContainment', quotesPath: 'sections[*].quote' }, onFail: 'abstain' }, { value, source });
    const outcome = await gateStep.run(ctx);
    expect(outcome).toMatchObject({ status: 'failed', failure: { code: 'gate_failed' } });
    expect(ctx.events[0]).toMatchObject({ passed: false, problems: ['quote 1 is not in the source: "within 90 days"'] });
  });

  it('checks a JSON Schema', async () => {
    const ctx = fakeContext({ bindings: {}, check: { type: 'jsonSchema', schema: { type: 'object', required: ['a'] } }, onFail: 'abort' }, { value: {} });
    expect(await gateStep.run(ctx)).toMatchObject({ status: 'failed', failure: { message: "(root): must have required property 'a'" } });
  });

  it('selects values with [*] paths and containment helpers agree', () => {
    expect(selectAll({ a: [{ b: 1 }, { b: 2 }, {}] }, 'a[*].b')).toEqual([1, 2]);
    expect(checkQuoteContainment([42], 'x')).toEqual(['quote 1 is not a string']);
  });
});
