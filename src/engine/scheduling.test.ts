import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Chain } from '../chain/schema.ts';
import type { ModelProvider } from '../providers/types.ts';
import { createScriptedProvider } from '../testing/scripted-provider.ts';
import { createMemoryRunRepository } from '../trace/repository.ts';
import { runChain } from './run.ts';

const schema = { type: 'object', properties: { v: { type: 'string' } }, required: ['v'], additionalProperties: false };
const model = (id: string, reads: Record<string, string>, prompt: string) => ({ id, kind: 'model', name: id, position: { x: 0, y: 0 }, config: { bindings: reads, prompt, outputSchema: schema } });

const diamond: Chain = {
  format: 'seamscope.chain', version: 1, id: 'diamond', name: 'Diamond',
  inputs: [{ name: 'q', schema: { type: 'string' }, trust: 'trusted', required: true }],
  steps: [
    model('a', { q: 'inputs.q' }, 'A {q}'),
    model('b', { a: 'steps.a.v' }, 'B {a}'),
    model('c', { a: 'steps.a.v' }, 'C {a}'),
    model('d', { b: 'steps.b.v', c: 'steps.c.v' }, 'D {b} {c}'),
    { id: 'out', kind: 'output', name: 'out', position: { x: 0, y: 0 }, config: { bindings: { value: 'steps.d.v' } } },
  ],
};

/** Holds each call until released, recording which prompts were in flight together. */
function gatedProvider() {
  const inFlight = new Set<string>();
  const overlaps: string[][] = [];
  const provider: ModelProvider = {
    kind: 'gated',
    async call(req) {
      const name = (req.messages.at(-1)?.content ?? '').slice(0, 1);
      inFlight.add(name);
      overlaps.push([...inFlight].sort());
      await new Promise((r) => setTimeout(r, 20));
      inFlight.delete(name);
      return { text: JSON.stringify({ v: name }), finishReason: 'stop', rawFinishReason: 'stop', usage: { inputTokens: 1000, outputTokens: 500 }, requestBody: {}, rawResponse: {}, status: 200, model: req.model };
    },
  };
  return { provider, overlaps };
}

describe('scheduling', () => {
  it('runs independent steps of a diamond concurrently: its critical path, not the sum', async () => {
    const { provider, overlaps } = gatedProvider();
    const run = await runChain({ chain: diamond, inputs: { q: 'x' }, provider, repo: createMemoryRunRepository(), model: { name: 'm', maxOutputTokens: 100, structuredOutput: true }, countTokens: (t) => t.length });
    expect(run.status).toBe('succeeded');
    expect(overlaps).toContainEqual(['B', 'C']);
    expect(overlaps.some((o) => o.includes('D') && o.length > 1)).toBe(false);
  });

  it('honours the per-run concurrency limit', async () => {
    const { provider, overlaps } = gatedProvider();
    await runChain({ chain: diamond, inputs: { q: 'x' }, provider, repo: createMemoryRunRepository(), model: { name: 'm', maxOutputTokens: 100, structuredOutput: true }, countTokens: (t) => t.length, concurrency: 1 });
    expect(overlaps.every((o) => o.length === 1)).toBe(true);
  });

  it('prices tokens per attempt and totals them per run', async () => {
    const { provider } = gatedProvider();
    const run = await runChain({ chain: diamond, inputs: { q: 'x' }, provider, repo: createMemoryRunRepository(), model: { name: 'm', maxOutputTokens: 100, structuredOutput: true, prices: { input: 2, output: 8 } }, countTokens: (t) => t.length });
    // 4 calls × (1000 × $2 + 500 × $8) / 1M = 4 × $0.006
    expect(run.usage).toMatchObject({ inputTokens: 4000, outputTokens: 2000 });
    expect((run.usage as { costUsd: number }).costUsd).toBeCloseTo(0.024, 10);
  });
});

describe('webhook terminal', () => {
  const received: { key: string | undefined; body: { idempotency_key: string; value: unknown } }[] = [];
  let failNext = 0;
  const server = createServer((req: IncomingMessage, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      received.push({ key: req.headers['idempotency-key'] as string | undefined, body: JSON.parse(data) });
      if (req.url === '/moved') res.writeHead(307, { location: `${elsewhere}/hook` }).end();
      else if (failNext-- > 0) res.writeHead(503).end();
      else res.writeHead(200).end('ok');
    });
  });
  let url = '';
  let elsewhere = 'http://127.0.0.1:1';
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const hookChain = (): Chain => ({
    format: 'seamscope.chain', version: 1, id: 'hook', name: 'Hook',
    inputs: [{ name: 'q', schema: { type: 'string' }, trust: 'trusted', required: true }],
    steps: [model('a', { q: 'inputs.q' }, 'A {q}'), { id: 'send', kind: 'webhook', name: 'Send', position: { x: 0, y: 0 }, config: { bindings: { value: 'steps.a' }, url } }],
  });

  it('sends one idempotency key for a run, the same across transport retries and a resume', async () => {
    received.length = 0;
    failNext = 1;
    const repo = createMemoryRunRepository();
    const allowEgress = [new URL(url).origin];
    const first = await runChain({ chain: hookChain(), inputs: { q: 'x' }, allowEgress, provider: createScriptedProvider([{ v: 'hello' }]), repo, model: { name: 'm', maxOutputTokens: 100, structuredOutput: true }, countTokens: (t) => t.length });
    expect(first.status).toBe('succeeded');
    expect(received).toHaveLength(2);
    expect(received[0]?.key).toBe(received[1]?.key);
    expect(received[0]?.body.value).toEqual({ v: 'hello' });
    // Resuming the same run (e.g. after a crash before the run was marked done) reuses the key.
    const events = (await repo.getEvents(first.id)).filter((e) => !(e.type === 'step.finished' && e.stepId === 'send'));
    await runChain({ chain: hookChain(), inputs: { q: 'x' }, allowEgress, provider: createScriptedProvider([]), repo, runId: first.id, resume: { events }, model: { name: 'm', maxOutputTokens: 100, structuredOutput: true }, countTokens: (t) => t.length });
    expect(received).toHaveLength(3);
    expect(received[2]?.key).toBe(received[0]?.key);
  });

  it('does not follow a redirect to another origin: the step fails, saying where it pointed', async () => {
    const other: string[] = [];
    const far = createServer((req, res) => {
      other.push(req.url ?? '');
      res.writeHead(200).end('ok');
    });
    await new Promise<void>((r) => far.listen(0, '127.0.0.1', r));
    elsewhere = `http://127.0.0.1:${(far.address() as AddressInfo).port}`;
    try {
      const moved = url.replace(/\/hook$/, '/moved');
      const chain: Chain = { ...hookChain(), steps: hookChain().steps.map((s) => (s.kind === 'webhook' ? { ...s, config: { ...s.config, url: moved } } : s)) };
      const { createNodeFetch } = await import('../cli/node-fetch.ts');
      for (const fetchImpl of [undefined, createNodeFetch()]) {
        received.length = 0;
        const run = await runChain({ chain, inputs: { q: 'x' }, allowEgress: [new URL(url).origin], provider: createScriptedProvider([{ v: 'hello' }]), repo: createMemoryRunRepository(), model: { name: 'm', maxOutputTokens: 100, structuredOutput: true }, countTokens: (t) => t.length, ...(fetchImpl ? { fetch: fetchImpl } : {}) });
        expect(run.status).toBe('failed');
        expect(run.error).toContain(`redirect to ${elsewhere}/hook`);
        expect(received).toHaveLength(1);
      }
      expect(other).toHaveLength(0);
    } finally {
      await new Promise<void>((r) => far.close(() => r()));
    }
  });

  it('refuses, before any model call, a run whose webhook origin was not allowed', async () => {
    received.length = 0;
    const calls: unknown[] = [];
    const provider = createScriptedProvider([{ v: 'hello' }]);
    const counting = { ...provider, call: (...args: Parameters<typeof provider.call>) => (calls.push(args[0]), provider.call(...args)) };
    for (const allowEgress of [undefined, [], ['http://127.0.0.1:1'], [`https://${new URL(url).host}`]]) {
      const run = await runChain({ chain: hookChain(), inputs: { q: 'x' }, allowEgress, egressHint: 'pass --allow-webhook', provider: counting, repo: createMemoryRunRepository(), model: { name: 'm', maxOutputTokens: 100, structuredOutput: true }, countTokens: (t) => t.length });
      expect(run.status).toBe('failed');
      expect(run.error).toContain(new URL(url).origin);
      expect(run.error).toContain('pass --allow-webhook');
    }
    expect(calls).toHaveLength(0);
    expect(received).toHaveLength(0);
  });
});

describe('streaming', () => {
  it('hands partial text to onDelta as it arrives, and records only the whole response', async () => {
    const { createDemoProvider } = await import('../providers/demo-model.ts');
    const chain: Chain = { ...diamond, steps: [{ ...model('a', { q: 'inputs.q' }, 'A {q}'), config: { ...model('a', { q: 'inputs.q' }, 'A {q}').config, stream: true } }] };
    const deltas: string[] = [];
    const repo = createMemoryRunRepository();
    const run = await runChain({ chain, inputs: { q: 'x' }, provider: createDemoProvider(), repo, model: { name: 'm', maxOutputTokens: 100, structuredOutput: true }, countTokens: (t) => t.length, onDelta: (stepId, text) => deltas.push(`${stepId}:${text}`) });
    expect(run.status).toBe('succeeded');
    expect(deltas.length).toBeGreaterThan(1);
    const attempt = (await repo.getEvents(run.id)).find((e) => e.type === 'step.attempt') as { record: { text: string } };
    expect(deltas.map((d) => d.slice(2)).join('')).toBe(attempt.record.text);
  });
});
