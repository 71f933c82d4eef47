import { describe, expect, it } from 'vitest';
import { parseChain } from '../../chain/parse.ts';
import { routedChain, twoStepChain } from '../../testing/chain-fixtures.ts';
import type { RunMeta, TraceEvent } from '../events.ts';
import { buildRunView } from '../replay.ts';
import { exportRunToOtlp } from './export.ts';
import { settingsForExport } from './request-settings.ts';
import { importOtlpTrace } from './import.ts';
import type { OtlpTraceData } from './otlp-json.ts';
import { engineRun } from '../../testing/otlp-runs.ts';
import { stepRegistry } from '../../steps/index.ts';
import { rerunRequestOf } from '../recorded-request.ts';
import { attributeRecord } from './otlp-json.ts';

/**
 * What survives export by design: everything but the raw request and response bodies. Of the
 * request, the settings besides the messages come back as recorded settings.
 */
function withoutBodies(events: readonly TraceEvent[]): TraceEvent[] {
  return events.map((e) => {
    if (e.type !== 'step.attempt') return e;
    const record = { ...e.record };
    const settings = settingsForExport(record);
    delete record.requestBody;
    delete record.rawResponse;
    return { ...e, record: { ...record, ...(settings ? { recordedRequest: { ...settings } } : {}) } };
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

  describe('the settings a call was made with', () => {
    const schema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false };
    const body = {
      model: 'test-model', system: 'Answer from the facts.', messages: [{ role: 'user', content: 'When can I appeal?' }], temperature: 0, max_tokens: 100,
      top_p: 0.9, seed: 7, stop: ['END'], frequency_penalty: 1, n: 1,
      response_format: { type: 'json_schema', json_schema: { name: 'answer', schema, strict: true } },
      tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'string' } } } } }],
      tool_choice: 'auto',
    };
    const answerAttempt = (events: TraceEvent[]) => {
      const a = events.find((e): e is Extract<TraceEvent, { type: 'step.attempt' }> => e.type === 'step.attempt' && e.stepId === 'answer');
      if (!a) throw new Error('no answer attempt');
      return a;
    };
    const endpoint = { maxOutputTokens: 512, structuredOutput: true };

    it('a request body comes back as recorded settings (messages aside), and a rerun of the re-imported call sends and names the same', async () => {
      const { meta, events } = await retried();
      const attempt = answerAttempt(events);
      attempt.record.requestBody = body;
      attempt.record.asRecorded = { sent: ['top_p 0.9'], notSent: ['seed 7'], added: [], settingsRecorded: true };
      const exported = exportRunToOtlp(meta, events);
      const span = exported.resourceSpans[0]?.scopeSpans[0]?.spans.find((sp) => sp.name === 'chat test-model' && attributeRecord(sp.attributes)['seamscope.step.id'] === 'answer');
      const attrs = attributeRecord(span?.attributes ?? []);
      // One setting per GenAI attribute for other viewers, of the convention's types.
      expect(attrs).toMatchObject({ 'gen_ai.request.top_p': 0.9, 'gen_ai.request.seed': 7, 'gen_ai.request.stop_sequences': ['END'], 'gen_ai.request.frequency_penalty': 1, 'gen_ai.request.choice.count': 1 });
      expect(span?.attributes?.find((kv) => kv.key === 'gen_ai.request.frequency_penalty')?.value).toEqual({ doubleValue: 1 });
      expect(JSON.parse(attrs['gen_ai.tool.definitions'] as string)).toEqual(body.tools);
      // The conversation travels in the GenAI messages, not again in the settings.
      expect(Object.keys(JSON.parse(attrs['seamscope.request.settings'] as string))).not.toEqual(expect.arrayContaining(['messages']));
      expect(JSON.parse(attrs['seamscope.request.settings'] as string)).not.toHaveProperty('system');

      const back = reimport(meta, events);
      const record = answerAttempt(back.events).record;
      const { messages: _messages, system: _system, ...settings } = body;
      expect({ ...record.recordedRequest }).toEqual(settings);
      expect(record.asRecorded).toEqual(attempt.record.asRecorded);
      const before = rerunRequestOf(attempt.record, endpoint);
      const after = rerunRequestOf(record, endpoint);
      expect(after.fidelity).toEqual(before.fidelity);
      expect(after.fidelity.notSent.length + after.fidelity.sent.length).toBeGreaterThan(3);
      expect(after.contract).toEqual(before.contract);
      expect(after.tools).toEqual(before.tools);
    });

    it('an imported call\'s recorded settings survive a second export and import', async () => {
      const { meta, events } = await retried();
      const attempt = answerAttempt(events);
      delete attempt.record.requestBody;
      attempt.record.recordedRequest = { top_p: 0.5, response_format: { type: 'json_schema', json_schema: { name: 'answer', schema } }, user: 'analyst-7' };
      const once = reimport(meta, events);
      const twice = reimport(once.run, once.events);
      expect({ ...answerAttempt(twice.events).record.recordedRequest }).toEqual(attempt.record.recordedRequest);
    });

    it('settings in a file keep no credential-bearing key, and a damaged value is left out', async () => {
      const { meta, events } = await retried();
      const data = exportRunToOtlp(meta, events);
      const spans = data.resourceSpans[0]?.scopeSpans[0]?.spans ?? [];
      const chat = spans.filter((sp) => sp.name.startsWith('chat '));
      const put = (span: (typeof chat)[number] | undefined, key: string, stringValue: string) => {
        if (!span) throw new Error('no chat span');
        span.attributes = [...(span.attributes ?? []).filter((kv) => kv.key !== key), { key, value: { stringValue } }];
      };
      put(chat[0], 'seamscope.request.settings', JSON.stringify({ top_p: 0.2, api_key: 'sk-planted-0123456789', headers: { authorization: 'Bearer x' }, extra_headers: {} }));
      put(chat[1], 'seamscope.request.settings', '{"top_p": 0.2');
      put(chat[1], 'seamscope.rerun_fidelity', JSON.stringify({ sent: 'all of it' }));
      const result = importOtlpTrace(JSON.stringify(data), stepRegistry);
      if (!result.ok) throw new Error(result.message);
      const records = result.events.filter((e): e is Extract<TraceEvent, { type: 'step.attempt' }> => e.type === 'step.attempt').map((e) => e.record);
      expect({ ...records[0]?.recordedRequest }).toEqual({ top_p: 0.2 });
      expect(JSON.stringify(result.events)).not.toContain('sk-planted');
      expect(records[1]?.recordedRequest).toBeUndefined();
      expect(records[1]?.asRecorded).toBeUndefined();
    });
  });
});
