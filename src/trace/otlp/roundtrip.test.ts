import { describe, expect, it } from 'vitest';
import { parseChain } from '../../chain/parse.ts';
import { routedChain, twoStepChain } from '../../testing/chain-fixtures.ts';
import type { RunMeta, TraceEvent } from '../events.ts';
import { buildRunView } from '../replay.ts';
import { exportRunToOtlp } from './export.ts';
import { importOtlpTrace } from './import.ts';
import type { OtlpTraceData } from './otlp-json.ts';
import { engineRun } from '../../testing/otlp-runs.ts';
import { stepRegistry } from '../../steps/index.ts';

/** What survives export by design: everything but the raw request and response bodies. */
function withoutBodies(events: readonly TraceEvent[]): TraceEvent[] {
  return events.map((e) => {
    if (e.type !== 'step.attempt') return e;
    const record = { ...e.record };
    delete record.requestBody;
    delete record.rawResponse;
    return { ...e, record };
  });
}

function reimport(meta: RunMeta, events: TraceEvent[]) {
  const result = importOtlpTrace(JSON.stringify(exportRunToOtlp(meta, events)), stepRegistry);
  if (!result.ok) throw new Error(result.message);
  return result;
}

const retried = () => engineRun([{ facts: 'not an array' }, { facts: ['appeals within 180 days'] }, { answer: 'Within 180 days.' }]);

describe('export → import round trip', () => {
  it('gives back the same steps, attempts, messages, outputs and boundaries', async () => {
    const { meta, events } = await retried();
    const back = reimport(meta, events);
    expect(back.warnings).toEqual([]);
    const before = buildRunView(meta, withoutBodies(events), stepRegistry);
    const after = buildRunView(back.run, back.events, stepRegistry);
    expect(after.steps.map((s) => s.stepId)).toEqual(['extract', 'answer', 'final']);
    expect(after.steps).toEqual(before.steps);
    expect(after.boundaries).toEqual(before.boundaries);
    expect(after.steps[0]?.attempts.map((a) => a.record.failure)).toEqual(['schema_violation', undefined]);
    expect(back.run).toMatchObject({ status: 'succeeded', output: 'Within 180 days.', chainId: 'two-step', chainName: 'Two step', inputs: meta.inputs, provider: 'scripted', model: 'test-model' });
    expect(back.run.usage).toEqual(meta.usage);
    expect(back.run.id).not.toBe(meta.id);
    expect((back.run.chain as { meta?: Record<string, unknown> }).meta).toMatchObject({ importedFrom: ['Seamscope export', 'OpenTelemetry GenAI'], importedRunId: meta.id });
  });

  it('keeps tool calls, reasoning and cached/reasoning token counts', async () => {
    const { meta, events } = await retried();
    const attempt = events.find((e): e is Extract<TraceEvent, { type: 'step.attempt' }> => e.type === 'step.attempt' && e.stepId === 'answer');
    if (!attempt) throw new Error('no answer attempt');
    Object.assign(attempt.record, {
      toolCalls: [{ id: 'call_1', name: 'lookup', arguments: '{"q": "appeal deadline"}' }], reasoning: 'The facts name 180 days.',
      usage: { inputTokens: 50, outputTokens: 9, cachedInputTokens: 32, reasoningTokens: 4 },
    });
    const back = reimport(meta, events);
    const record = buildRunView(back.run, back.events, stepRegistry).steps.find((s) => s.stepId === 'answer')?.attempts[0]?.record;
    expect(record).toMatchObject({ text: attempt.record.text, toolCalls: attempt.record.toolCalls, reasoning: 'The facts name 180 days.', usage: attempt.record.usage });
  });

  it('keeps routes, skipped steps and a failed run', async () => {
    const routed = await engineRun([{ category: 'billing' }], routedChain(), { ticket: 'I was charged twice' });
    const back = reimport(routed.meta, routed.events);
    expect(buildRunView(back.run, back.events, stepRegistry).steps).toEqual(buildRunView(routed.meta, withoutBodies(routed.events), stepRegistry).steps);

    const failed = await engineRun(['not json {', '{"facts": [']);
    const again = reimport(failed.meta, failed.events);
    expect(again.run).toMatchObject({ status: 'failed', error: failed.meta.error });
    expect(buildRunView(again.run, again.events, stepRegistry).steps).toEqual(buildRunView(failed.meta, withoutBodies(failed.events), stepRegistry).steps);

    // A run refused before any model call has no chat span; its export still round-trips.
    const early = await engineRun([], twoStepChain(), { document: 'only one input' });
    const none = reimport(early.meta, early.events);
    expect(none.run).toMatchObject({ status: 'failed', error: 'The required input "question" is missing' });
    expect(none.events.map((e) => e.type)).toEqual(['run.started', 'run.finished']);
  });

  it('keeps truncation records and gate checks', async () => {
    const chain = twoStepChain();
    const [extract, answer, final] = chain.steps;
    Object.assign(extract?.config ?? {}, { inputBudget: 80, truncate: { binding: 'document', from: 'end' } });
    const gate = { id: 'check_facts', kind: 'gate', name: 'Check', position: { x: 140, y: 120 }, config: { bindings: { value: 'steps.extract' }, check: { type: 'jsonSchema', schema: { type: 'object', required: ['facts'] } } } };
    const { meta, events } = await engineRun([{ facts: ['a fact'] }, { answer: 'An answer.' }], { ...chain, steps: [extract!, gate, answer!, final!] });
    const truncation = events.find((e): e is Extract<TraceEvent, { type: 'step.attempt' }> => e.type === 'step.attempt')?.record.truncation;
    expect(truncation).toMatchObject({ binding: 'document', budget: 80 });
    expect(events.some((e) => e.type === 'step.check')).toBe(true);
    const back = reimport(meta, events);
    const after = buildRunView(back.run, back.events, stepRegistry);
    expect(after.steps).toEqual(buildRunView(meta, withoutBodies(events), stepRegistry).steps);
    expect(after.steps[0]?.attempts[0]?.record.truncation).toEqual(truncation);
    expect(after.steps.find((s) => s.stepId === 'check_facts')?.checks).toEqual([{ check: 'jsonSchema', passed: true, problems: [] }]);
  });

  it('without the seamscope keys it still imports as generic GenAI: one step per call, reads inferred', async () => {
    const { meta, events } = await retried();
    const data = exportRunToOtlp(meta, events);
    // What another GenAI backend would re-export: only the standard keys survive.
    const stripped: OtlpTraceData = JSON.parse(JSON.stringify(data), (key, value: unknown) => (
      Array.isArray(value) && value.every((kv) => typeof kv?.key === 'string') ? value.filter((kv: { key: string }) => !kv.key.startsWith('seamscope.')) : value
    )) as OtlpTraceData;
    const result = importOtlpTrace(JSON.stringify(stripped), stepRegistry);
    if (!result.ok) throw new Error(result.message);
    const view = buildRunView(result.run, result.events, stepRegistry);
    expect(view.steps.map((s) => s.stepId)).toEqual(['chat_test_model', 'chat_test_model_2', 'chat_test_model_3']);
    expect(view.steps.map((s) => s.attempts[0]?.record.messages)).toEqual(
      events.filter((e): e is Extract<TraceEvent, { type: 'step.attempt' }> => e.type === 'step.attempt').map((e) => e.record.messages),
    );
    // The retry read the failed output back; `answer` read the facts field of the good one.
    expect(view.boundaries.map((b) => [b.producer, b.consumer, b.binding])).toEqual([
      ['chat_test_model', 'chat_test_model_2', 'chat_test_model'],
      ['chat_test_model_2', 'chat_test_model_3', 'chat_test_model_2_facts'],
    ]);
    expect(view.boundaries[1]?.intermediate).toEqual({ facts: ['appeals within 180 days'] });
    expect(result.run.chain).toMatchObject({ meta: { importedFrom: ['OpenTelemetry GenAI'] } });
    const chain = parseChain(result.run.chain, stepRegistry);
    expect(chain.ok ? chain.chain.steps[2]?.config.prompt : chain.problems).toContain('{chat_test_model_2_facts}');
  });
});
