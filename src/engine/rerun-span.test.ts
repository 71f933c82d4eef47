import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { diffRuns } from '../inspect/run-diff.ts';
import { createDemoProvider } from '../providers/demo-model.ts';
import { createOpenAIProvider } from '../providers/openai.ts';
import { demoProfile, runModelSettings } from '../providers/profiles.ts';
import { stepRegistry } from '../steps/index.ts';
import { importTraceText } from '../formats/traces.ts';
import { readCorpus } from '../testing/corpus.ts';
import { createMockModelServer, type MockModelServer } from '../testing/mock-server.ts';
import { createMemoryRunRepository } from '../trace/repository.ts';
import { planSpanRerun } from '../trace/rerun-span.ts';
import type { RunMeta, TraceEvent } from '../trace/events.ts';
import { rerunSpan } from './rerun-span.ts';

/**
 * Rerunning a span of a real capture (corpus: OpenLLMetry JS 0.27 around openai 6.49, three
 * calls; the second translates the first one's answer, the third is independent) against the
 * mock model server over HTTP and against the offline demo model.
 */
function imported(file: string): { meta: RunMeta; events: TraceEvent[] } {
  const result = importTraceText(readCorpus(file), stepRegistry);
  if (!result.ok) throw new Error(result.message);
  return { meta: result.run, events: result.events };
}

const OPENLLMETRY = 'traces/otlp/openllmetry-js-0.27-openai.otlp.json';
const KEY = 'sk-rerun-test-0123456789abcdef';
let mock: MockModelServer;

beforeEach(async () => {
  mock = await createMockModelServer({ apiKey: KEY });
});
afterEach(() => mock.close());

const endpoint = () => ({ provider: createOpenAIProvider({ baseUrl: `${mock.url}/v1`, apiKey: KEY }), model: { name: 'mock-model', maxOutputTokens: 512, structuredOutput: false } });
const sentMessages = () => mock.requests.map((r) => (r.body as { messages: { role: string; content: string }[] }).messages);

describe('planning a rerun from a span', () => {
  it('reruns the span and the later call that read its output; keeps the one the trace does not show reading it, and says why', () => {
    const { meta, events } = imported(OPENLLMETRY);
    const plan = planSpanRerun(meta, events, 'chat_mock_model');
    expect(plan.rerun).toEqual(['chat_mock_model', 'chat_mock_model_2']);
    expect(plan.kept).toEqual(['chat_mock_model_3']);
    expect(plan.steps[1]).toEqual({ stepId: 'chat_mock_model_2', action: 'rerun', reads: [{ producer: 'chat_mock_model', needle: 'Paris is the capital of France.' }] });
    expect(plan.steps[2]).toMatchObject({ action: 'kept', reason: expect.stringMatching(/^the trace does not show what it read: no output of "chat mock-model" \(chat_mock_model\), "chat mock-model" \(chat_mock_model_2\) appears verbatim in its input/) });
  });

  it('reuses every call before the span', () => {
    const { meta, events } = imported(OPENLLMETRY);
    const plan = planSpanRerun(meta, events, 'chat_mock_model_2');
    expect(plan).toMatchObject({ rerun: ['chat_mock_model_2'], reused: ['chat_mock_model', 'chat_mock_model_3'], kept: ['chat_mock_model_3'] });
  });

  it('refuses a span whose messages the trace did not record (OpenTelemetry instrumentation-openai 0.22 keeps them in logs)', () => {
    const { meta, events } = imported('traces/otlp/otel-instrumentation-openai-0.22.otlp.json');
    expect(() => planSpanRerun(meta, events, 'chat_mock_model')).toThrow(/recorded no messages for this call/);
  });
});

describe('rerunning a span', () => {
  it('sends the edited prompt, then the later call with the new output in place of the recorded one; the key goes only to the endpoint', async () => {
    const { meta, events } = imported(OPENLLMETRY);
    const repo = createMemoryRunRepository();
    mock.enqueue({ content: 'Rome is the capital of Italy.' }, { content: 'Rom ist die Hauptstadt Italiens.' });
    const fork = await rerunSpan({
      parent: meta, parentEvents: events, fromStep: 'chat_mock_model', ...endpoint(), repo,
      messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Capital of Italy?' }],
    });
    // The run's output is its last call's, as for the import: here the kept one.
    expect(fork).toMatchObject({ status: 'succeeded', output: 'Streamed answer.', forkedFrom: { runId: meta.id, stepId: 'chat_mock_model', reused: ['chat_mock_model_3'] } });
    expect(sentMessages()).toEqual([
      [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Capital of Italy?' }],
      [{ role: 'user', content: 'Translate to German: Rome is the capital of Italy.' }],
    ]);
    const stored = await repo.getEvents(fork.id);
    expect(JSON.stringify([await repo.getRun(fork.id), stored])).not.toContain(KEY);
    // Compared with its parent step by step: the two rerun calls changed, the kept one did not.
    const diff = diffRuns({ meta, events }, { meta: (await repo.getRun(fork.id)) as RunMeta, events: stored });
    expect(diff.steps.map((s) => [s.stepId, s.outputChanged, s.reusedB])).toEqual([
      ['chat_mock_model', true, false], ['chat_mock_model_2', true, false], ['chat_mock_model_3', false, true],
    ]);
  });

  it('calls nothing before the span again', async () => {
    const { meta, events } = imported(OPENLLMETRY);
    mock.enqueue({ content: 'Paris ist die Hauptstadt von Frankreich.' });
    const fork = await rerunSpan({
      parent: meta, parentEvents: events, fromStep: 'chat_mock_model_2', ...endpoint(), repo: createMemoryRunRepository(),
      messages: [{ role: 'user', content: 'Translate to formal German: Paris is the capital of France.' }],
    });
    expect(fork.status).toBe('succeeded');
    expect(sentMessages()).toEqual([[{ role: 'user', content: 'Translate to formal German: Paris is the capital of France.' }]]);
  });

  it('runs on the offline demo model, the default profile', async () => {
    const { meta, events } = imported(OPENLLMETRY);
    const repo = createMemoryRunRepository();
    const fork = await rerunSpan({
      parent: meta, parentEvents: events, fromStep: 'chat_mock_model', provider: createDemoProvider(), model: runModelSettings(demoProfile), repo,
      messages: [{ role: 'user', content: 'Capital of Italy? Rome is the capital of Italy.' }],
    });
    expect(fork).toMatchObject({ status: 'succeeded', provider: 'demo', model: 'seamscope-demo-1' });
    const events2 = await repo.getEvents(fork.id);
    const attempts = events2.flatMap((e) => (e.type === 'step.attempt' ? [e] : []));
    // The kept call's recorded attempt comes along, without the parent's spend.
    expect(attempts.map((a) => [a.stepId, a.record.usage !== undefined])).toEqual([['chat_mock_model', true], ['chat_mock_model_2', true], ['chat_mock_model_3', false]]);
    expect(events2.flatMap((e) => (e.type === 'step.finished' && e.reused ? [e.stepId] : []))).toEqual(['chat_mock_model_3']);
    const first = attempts[0]?.record.text ?? '';
    expect(first).not.toBe('');
    // The demo model's own answer stands where the recorded one stood.
    expect(attempts[1]?.record.messages).toEqual([{ role: 'user', content: `Translate to German: ${first.trim()}` }]);
  });

  it('reruns a fork again: its reused calls keep their recorded messages, so its plan is the trace’s', async () => {
    const { meta, events } = imported(OPENLLMETRY);
    const repo = createMemoryRunRepository();
    mock.enqueue({ content: 'Rome is the capital of Italy.' }, { content: 'Rom ist die Hauptstadt Italiens.' }, { content: 'Roma è la capitale.' });
    const first = await rerunSpan({
      parent: meta, parentEvents: events, fromStep: 'chat_mock_model', ...endpoint(), repo,
      messages: [{ role: 'user', content: 'Capital of Italy?' }],
    });
    const forkMeta = (await repo.getRun(first.id)) as RunMeta;
    const forkEvents = await repo.getEvents(first.id);
    expect(planSpanRerun(forkMeta, forkEvents, 'chat_mock_model_2')).toMatchObject({ reused: ['chat_mock_model', 'chat_mock_model_3'], rerun: ['chat_mock_model_2'] });
    const second = await rerunSpan({
      parent: forkMeta, parentEvents: forkEvents, fromStep: 'chat_mock_model_2', ...endpoint(), repo,
      messages: [{ role: 'user', content: 'Translate to Italian: Rome is the capital of Italy.' }],
    });
    expect(second).toMatchObject({ status: 'succeeded', forkedFrom: { runId: first.id } });
    expect(mock.requests).toHaveLength(3);
  });

  it('stops, with the endpoint’s words, when the rerun call fails; nothing after it is called', async () => {
    const { meta, events } = imported(OPENLLMETRY);
    mock.enqueue({ fault: 'status', status: 400 });
    const fork = await rerunSpan({
      parent: meta, parentEvents: events, fromStep: 'chat_mock_model', ...endpoint(), repo: createMemoryRunRepository(),
      messages: [{ role: 'user', content: 'Capital of Italy?' }],
    });
    expect(fork.status).toBe('failed');
    expect(fork.error).toMatch(/^chat_mock_model: /);
    expect(mock.requests).toHaveLength(1);
  });
});
