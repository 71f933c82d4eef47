import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../providers/anthropic.ts';
import { loadTokenCounter } from '../providers/tokenizer.ts';
import { createOpenAIProvider } from '../providers/openai.ts';
import type { ModelProvider } from '../providers/types.ts';
import { twoStepChain } from '../testing/chain-fixtures.ts';
import { createMockModelServer, type MockModelServer } from '../testing/mock-server.ts';
import type { MockReply } from '../testing/mock-types.ts';
import type { TraceEvent } from '../trace/events.ts';
import { createMemoryRunRepository } from '../trace/repository.ts';
import { runChain } from './run.ts';

/**
 * Every fault the runner must survive, over real HTTP against the mock model server, on both
 * protocols: each run ends in a defined state and every attempt is in the trace.
 */
const KEY = 'fault-test-key';
const inputs = { document: 'Appeals must be filed within 180 days.', question: 'How many days?' };
const good = (content: object): MockReply => ({ content: content as Record<string, unknown> });

let server: MockModelServer;
beforeAll(async () => {
  server = await createMockModelServer({ apiKey: KEY });
});
afterAll(async () => {
  await server.close();
});

const protocols: { name: string; provider: (url: string, key?: string) => ModelProvider }[] = [
  { name: 'openai', provider: (url, key = KEY) => createOpenAIProvider({ baseUrl: `${url}/v1`, apiKey: key, structuredOutput: true }) },
  { name: 'anthropic', provider: (url, key = KEY) => createAnthropicProvider({ baseUrl: url, apiKey: key, structuredOutput: true }) },
];

async function run(provider: ModelProvider, replies: MockReply[], opts: { stream?: boolean; timeoutMs?: number } = {}) {
  server.reset();
  server.enqueue(...replies);
  const chain = twoStepChain();
  for (const step of chain.steps) if (step.kind === 'model') step.config.stream = opts.stream ?? false;
  const repo = createMemoryRunRepository();
  const meta = await runChain({
    chain, inputs, provider, repo, model: { name: 'mock-model', maxOutputTokens: 1024, structuredOutput: true },
    countTokens: await loadTokenCounter(),
    transport: { baseDelayMs: 5, maxDelayMs: 50, maxAttempts: 3, timeoutMs: opts.timeoutMs ?? 10_000 },
  });
  const events = await repo.getEvents(meta.id);
  return { meta, events, calls: server.requests.filter((r) => r.path !== '/__mock/requests').length };
}

const retries = (events: TraceEvent[]) => events.filter((e): e is Extract<TraceEvent, { type: 'step.transport_retry' }> => e.type === 'step.transport_retry');
const attempts = (events: TraceEvent[]) => events.filter((e): e is Extract<TraceEvent, { type: 'step.attempt' }> => e.type === 'step.attempt');

describe.each(protocols)('faults over HTTP ($name)', ({ provider: make }) => {
  const provider = () => make(server.url);

  it('429 with Retry-After is honoured (capped) and the run recovers', async () => {
    const { meta, events } = await run(provider(), [{ fault: 'status', status: 429, retryAfter: '30' }, good({ facts: ['a'] }), good({ answer: 'ok' })]);
    expect(meta.status).toBe('succeeded');
    const [retry] = retries(events);
    expect(retry?.status).toBe(429);
    expect(retry?.waitMs).toBe(50);
  });

  it.each([500, 502, 503, 529])('%i is retried with backoff and the run recovers', async (status) => {
    const { meta, events } = await run(provider(), [{ fault: 'status', status }, good({ facts: [] }), good({ answer: 'ok' })]);
    expect(meta.status).toBe('succeeded');
    expect(retries(events)[0]?.status).toBe(status);
  });

  it('gives up after the bounded number of transport attempts, failing visibly', async () => {
    const { meta, events, calls } = await run(provider(), [{ fault: 'status', status: 503 }, { fault: 'status', status: 503 }, { fault: 'status', status: 503 }]);
    expect(meta.status).toBe('failed');
    expect(calls).toBe(3);
    expect(attempts(events)[0]?.record.failure).toBe('provider_error');
    expect(meta.error).toMatch(/503/);
  });

  it.each([401, 403])('%i is not retried and says so plainly', async (status) => {
    const { meta, calls } = await run(provider(), [{ fault: 'status', status }]);
    expect(meta.status).toBe('failed');
    expect(calls).toBe(1);
    expect(meta.error).toMatch(/refused the API key/);
  });

  it('a wrong key is refused by the endpoint and not retried', async () => {
    server.reset();
    const { meta, calls } = await run(make(server.url, 'wrong-key'), []);
    expect(meta.status).toBe('failed');
    expect(calls).toBe(1);
  });

  it('a spend limit is not retried', async () => {
    const { meta, calls } = await run(provider(), [{ fault: 'quota' }]);
    expect(meta.status).toBe('failed');
    expect(calls).toBe(1);
    expect(meta.error).toMatch(/spend or quota limit/);
  });

  it('a stream cut before its end is a failure, retried, never a silent success', async () => {
    const { meta, events } = await run(provider(), [{ fault: 'cut_stream', afterChunks: 3 }, good({ facts: ['x'] }), good({ answer: 'ok' })], { stream: true });
    expect(meta.status).toBe('succeeded');
    expect(retries(events)[0]?.error).toMatch(/ended before it was complete/);
  });

  it('invalid JSON from the model is retried once with feedback, then fails the step', async () => {
    const { meta, events } = await run(provider(), [{ content: 'not json {' }, { content: '{"facts": [' }]);
    expect(meta.status).toBe('failed');
    const tries = attempts(events);
    expect(tries.map((a) => a.record.failure)).toEqual(['invalid_json', 'invalid_json']);
    expect(tries[0]?.record.feedback).toContain('not valid JSON');
  });

  it('a schema violation is retried with the errors as feedback', async () => {
    const { meta, events } = await run(provider(), [good({ facts: 'nope' }), good({ facts: ['ok'] }), good({ answer: 'fine' })]);
    expect(meta.status).toBe('succeeded');
    const body = JSON.stringify(server.requests.at(-2)?.body);
    expect(body).toContain('/facts: must be array');
    expect(attempts(events)[0]?.record.failure).toBe('schema_violation');
  });

  it('output cut at max tokens is truncated, a distinct failure', async () => {
    const { events } = await run(provider(), [{ content: '{"facts": ["a"]}', finishReason: 'length' }, good({ facts: ['a'] }), good({ answer: 'x' })]);
    const first = attempts(events)[0]?.record;
    expect(first?.failure).toBe('truncated');
    expect(first?.rawFinishReason).toMatch(/length|max_tokens/);
  });

  it('a refusal fails the step without a pointless retry', async () => {
    const { meta, events } = await run(provider(), [{ fault: 'refusal', message: 'I cannot help with that.' }]);
    expect(meta.status).toBe('failed');
    expect(attempts(events)).toHaveLength(1);
    expect(attempts(events)[0]?.record.failure).toBe('refusal');
  });

  it('a timeout is retried and then reported as a timeout', async () => {
    const { meta, events } = await run(provider(), [{ fault: 'hang' }, { fault: 'hang' }, { fault: 'hang' }], { timeoutMs: 150 });
    expect(meta.status).toBe('failed');
    expect(retries(events)[0]?.error).toMatch(/did not answer in time/);
  });
});

describe('connection refused', () => {
  it.each(protocols)('$name: retried, then the run fails with a network error', async ({ provider: make }) => {
    const closed = await createMockModelServer();
    const url = closed.url;
    await closed.close();
    const repo = createMemoryRunRepository();
    const meta = await runChain({
      chain: twoStepChain(), inputs, provider: make(url), repo, model: { name: 'm', maxOutputTokens: 100, structuredOutput: true },
      countTokens: (t) => t.length, transport: { baseDelayMs: 1, maxDelayMs: 5 },
    });
    expect(meta.status).toBe('failed');
    expect(meta.error).toMatch(/Could not reach the endpoint/);
    expect(retries(await repo.getEvents(meta.id))).toHaveLength(2);
  });
});
