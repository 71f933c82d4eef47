import { describe, expect, it } from 'vitest';
import { ProviderError } from '../providers/errors.ts';
import type { ModelProvider, ModelRequest } from '../providers/types.ts';
import { routedChain, twoStepChain } from '../testing/chain-fixtures.ts';
import { createMemoryRunRepository } from '../trace/repository.ts';
import type { Dataset } from './dataset.ts';
import { resultKey, runEval, type EvalVariant, type ItemResult } from './run-eval.ts';
import { shareRateLimit } from './shared-limit.ts';
import { evalTable, formatEvalTable } from './table.ts';

const model = { name: 'm', maxOutputTokens: 100, structuredOutput: true };
const lastUser = (r: ModelRequest) => r.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';

/** Answers by content, so the order the pool calls in does not matter: extract copies the document, answer repeats the facts. */
function contentProvider(opts: { delayMs?: number; onCall?: () => void } = {}): ModelProvider & { calls: number; inFlight: number; maxInFlight: number } {
  const p = {
    kind: 'content', calls: 0, inFlight: 0, maxInFlight: 0,
    async call(request: ModelRequest) {
      p.calls++;
      p.inFlight++;
      p.maxInFlight = Math.max(p.maxInFlight, p.inFlight);
      opts.onCall?.();
      await new Promise((r) => setTimeout(r, opts.delayMs ?? 0));
      p.inFlight--;
      const text = lastUser(request);
      const body = text.includes('List the facts')
        ? { facts: [text.match(/within \d+ \w+/)?.[0] ?? 'promptly'] }
        : text.startsWith('Classify') ? { category: text.includes('refund') ? 'billing' : 'tech' } : { answer: `Answer: ${text.match(/within \d+ \w+/)?.[0] ?? 'promptly'}` };
      const out = JSON.stringify(body);
      return { text: out, finishReason: 'stop' as const, rawFinishReason: 'stop', usage: { inputTokens: 100, outputTokens: 10 }, requestBody: {}, rawResponse: {}, status: 200, model: 'm' };
    },
  };
  return p;
}

const dataset = (n: number): Dataset => ({
  items: Array.from({ length: n }, (_, i) => ({
    id: `q${i}`, inputs: { document: i % 4 === 3 ? 'File promptly.' : `File within ${i + 1} days.`, question: 'How long?' },
    expected: { facts: [`${i + 1} days`] },
  })),
});

const variant = (name = 'two-step'): EvalVariant => ({ name, kind: 'chain', chain: twoStepChain() });

describe('runEval', () => {
  it('runs every item through a bounded pool, scores it, and stores each as an ordinary run', async () => {
    const provider = contentProvider({ delayMs: 2 });
    const repo = createMemoryRunRepository();
    const results: ItemResult[] = [];
    const progress: number[] = [];
    const outcome = await runEval({
      variants: [variant()], dataset: dataset(12), provider, model, repo, concurrency: 3,
      onResult: async (r) => void results.push(r), onProgress: (p) => progress.push(p.done),
    });
    expect(outcome).toEqual({ cancelled: false, ran: 12, skipped: 0 });
    expect(provider.maxInFlight).toBeLessThanOrEqual(3);
    expect(provider.maxInFlight).toBeGreaterThan(1);
    expect(results).toHaveLength(12);
    // Items 3, 7, 11 have a document that says "promptly": the facts scorer fails them.
    expect(results.filter((r) => !r.pass).map((r) => r.itemId).sort()).toEqual(['q11', 'q3', 'q7']);
    expect(results.find((r) => r.itemId === 'q3')?.scores[0]?.detail).toBe('missing: 4 days');
    expect(results.every((r) => r.calls === 2 && r.inputTokens === 200)).toBe(true);
    expect(progress.at(-1)).toBe(12);
    // Each item's run is an ordinary stored run.
    expect((await repo.listRuns()).length).toBe(12);
    const table = evalTable([variant()], results);
    expect(table.variants[0]).toMatchObject({ n: 12, correct: 9, accuracy: 0.75, calls: 2 });
    expect(table.steps.map((s) => s.stepId).sort()).toEqual(['answer', 'extract', 'final']);
    // Sufficiency on the item's gold facts: the three "promptly" documents never carried the day count.
    expect(table.boundaries.find((b) => b.producer === 'extract' && b.consumer === 'answer')).toMatchObject({ runs: 12, sufficient: 9, insufficient: 3, sufficiencyRate: 0.75 });
  });

  it('resumes: finished items are not run again', async () => {
    const provider = contentProvider();
    const done = new Set(['q0', 'q1', 'q2'].map((id) => resultKey('two-step', id)));
    const results: ItemResult[] = [];
    const outcome = await runEval({ variants: [variant()], dataset: dataset(5), provider, model, repo: createMemoryRunRepository(), done, onResult: async (r) => void results.push(r) });
    expect(outcome).toMatchObject({ ran: 2, skipped: 3 });
    expect(results.map((r) => r.itemId).sort()).toEqual(['q3', 'q4']);
    expect(provider.calls).toBe(4);
  });

  it('runs several variants through one pool, each completing the item its own way', async () => {
    const provider = contentProvider({ delayMs: 5 });
    const results: ItemResult[] = [];
    // Each item leaves the document out; variant "a" fills in 3 days, "b" 30: the pool spans both.
    const bare: Dataset = { items: Array.from({ length: 3 }, (_, i) => ({ id: `q${i}`, inputs: { question: 'How long?' }, expected: { facts: ['3 days'] } })) };
    const filled = new Map([['a', 'File within 3 days.'], ['b', 'File within 30 days.']]);
    await runEval({
      variants: [variant('a'), variant('b')], dataset: bare, provider, model, repo: createMemoryRunRepository(), concurrency: 6,
      itemFor: (v, item) => ({ ...item, inputs: { ...item.inputs, document: filled.get(v.name) } }),
      onResult: async (r) => void results.push(r),
    });
    // Six jobs, six slots: the second variant's items did not wait for the first's to finish.
    expect(provider.maxInFlight).toBe(6);
    expect(results.filter((r) => r.pass).map((r) => r.variant)).toEqual(['a', 'a', 'a']);
    expect(results.filter((r) => r.variant === 'b').map((r) => r.scores[0]?.detail)).toEqual(['missing: 3 days', 'missing: 3 days', 'missing: 3 days']);
    // The stored item is untouched: only the job sees the completed inputs.
    expect(bare.items[0]?.inputs).toEqual({ question: 'How long?' });
  });

  it('cancels: what was cut short is not a result and runs again on resume', async () => {
    const controller = new AbortController();
    const provider = contentProvider({ delayMs: 5, onCall: () => { if (provider.calls >= 5) controller.abort(); } });
    const results: ItemResult[] = [];
    const outcome = await runEval({ variants: [variant()], dataset: dataset(10), provider, model, repo: createMemoryRunRepository(), concurrency: 2, signal: controller.signal, onResult: async (r) => void results.push(r) });
    expect(outcome.cancelled).toBe(true);
    expect(results.length).toBeLessThan(10);
    expect(results.every((r) => r.status !== 'cancelled' && r.status !== 'interrupted')).toBe(true);
  });

  it('starts no item while beforeItem holds, and runs every item once it lets go', async () => {
    const provider = contentProvider();
    let release: () => void = () => undefined;
    let holding = true;
    const held = new Promise<void>((r) => { release = () => { holding = false; r(); }; });
    let waits = 0;
    const results: ItemResult[] = [];
    const batch = runEval({
      variants: [variant()], dataset: dataset(6), provider, model, repo: createMemoryRunRepository(), concurrency: 3,
      beforeItem: () => { waits++; return holding ? held : Promise.resolve(); },
      onResult: async (r) => void results.push(r),
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(provider.calls).toBe(0);
    expect(waits).toBe(3);
    release();
    const outcome = await batch;
    expect(outcome).toMatchObject({ cancelled: false, ran: 6 });
    expect(results.map((r) => r.itemId).sort()).toEqual(['q0', 'q1', 'q2', 'q3', 'q4', 'q5']);
  });

  it('a cancel while beforeItem holds ends the batch with nothing more started', async () => {
    const controller = new AbortController();
    const provider = contentProvider();
    const outcome = await runEval({
      variants: [variant()], dataset: dataset(4), provider, model, repo: createMemoryRunRepository(), concurrency: 2, signal: controller.signal,
      beforeItem: (signal) => new Promise<void>((resolve) => { signal?.addEventListener('abort', () => resolve(), { once: true }); setTimeout(() => controller.abort(), 5); }),
      onResult: async () => undefined,
    });
    expect(outcome).toMatchObject({ cancelled: true, ran: 0 });
    expect(provider.calls).toBe(0);
  });

  it('continues a run a cancelled batch left unfinished instead of starting it again', async () => {
    const repo = createMemoryRunRepository();
    const controller = new AbortController();
    const slow = contentProvider({ delayMs: 20, onCall: () => { if (slow.calls === 1) setTimeout(() => controller.abort(), 5); } });
    const runIdFor = (_v: EvalVariant, item: { id: string }) => `batch-${item.id}`;
    const first: ItemResult[] = [];
    await runEval({ variants: [variant()], dataset: dataset(1), provider: slow, model, repo, concurrency: 1, signal: controller.signal, runIdFor, onResult: async (r) => void first.push(r) });
    expect(first).toEqual([]);
    expect((await repo.getRun('batch-q0'))?.status).toMatch(/cancelled|interrupted/);
    const again = contentProvider();
    const results: ItemResult[] = [];
    await runEval({ variants: [variant()], dataset: dataset(1), provider: again, model, repo, runIdFor, onResult: async (r) => void results.push(r) });
    expect(results.map((r) => [r.runId, r.status, r.pass])).toEqual([['batch-q0', 'succeeded', true]]);
    // The extract step finished before the cancel: only the answer is called again.
    expect(again.calls).toBe(1);
    expect((await repo.getEvents('batch-q0')).some((e) => e.type === 'run.resumed')).toBe(true);
  });

  it('scores the route a router took', async () => {
    const results: ItemResult[] = [];
    const routed: Dataset = { items: [
      { id: 'a', inputs: { ticket: 'I want a refund' }, expected: { route: 'billing_reply' } },
      { id: 'b', inputs: { ticket: 'The app crashes' }, expected: { route: 'billing_reply' } },
    ] };
    await runEval({ variants: [{ name: 'routed', kind: 'chain', chain: routedChain() }], dataset: routed, provider: contentProvider(), model, repo: createMemoryRunRepository(), onResult: async (r) => void results.push(r) });
    expect(results.find((r) => r.itemId === 'a')?.pass).toBe(true);
    expect(results.find((r) => r.itemId === 'b')?.scores[0]?.detail).toBe('expected billing_reply, reached tech_reply');
  });

  it('prints a table with ties and the spend multiplication', async () => {
    const results: ItemResult[] = [];
    await runEval({ variants: [variant('a'), variant('b')], dataset: dataset(8), provider: contentProvider(), model, repo: createMemoryRunRepository(), onResult: async (r) => void results.push(r) });
    const table = evalTable([variant('a'), variant('b')], results, { volume: 400_000, priceIn: 0.4, priceOut: 1.6 });
    expect(table.variants.map((v) => v.tiesWith)).toEqual([['b'], ['a']]);
    expect(table.variants[0]?.spendPerMonth).toBeCloseTo(400_000 * ((200 * 0.4 + 20 * 1.6) / 1e6));
    const text = formatEvalTable(table).join('\n');
    expect(text).toContain('spend a: 400,000 items × (200 in × $0.4/M + 20 out × $1.6/M) = $44.80');
    expect(text).toMatch(/^#\s+variant\s+kind\s+n\s+accuracy/);
    expect(text).toMatch(/#1\s+a\s+chain\s+8\s+75\.0%\s+\S+\s+#2/);
  });
});

describe('shareRateLimit', () => {
  it('holds every other call back for the pause one call was told about', async () => {
    let clock = 0;
    const slept: number[] = [];
    let first = true;
    const inner: ModelProvider = {
      kind: 'x',
      async call() {
        if (first) {
          first = false;
          throw new ProviderError('rate_limited', 'slow down', { status: 429, retryAfterMs: 2_000 });
        }
        return { text: '{}', finishReason: 'stop', rawFinishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1 }, requestBody: {}, rawResponse: {}, status: 200, model: 'm' };
      },
    };
    const shared = shareRateLimit(inner, { now: () => clock, sleep: async (ms) => { slept.push(ms); clock += ms; } });
    const request = { model: 'm', messages: [], maxTokens: 1 } as unknown as ModelRequest;
    await expect(shared.provider.call(request, { fetch })).rejects.toThrow('slow down');
    clock += 500;
    await shared.provider.call(request, { fetch });
    await shared.provider.call(request, { fetch });
    expect(slept).toEqual([1_500]);
    expect(shared.held).toBe(1);
  });
});

describe('a frozen boundary', () => {
  it('reruns the stage (and what follows) against what it received in an earlier eval, with no upstream call (the mock’s request log)', async () => {
    const { createMockModelServer } = await import('../testing/mock-server.ts');
    const { createProviderForProfile } = await import('../providers/profiles.ts');
    const mock = await createMockModelServer();
    try {
      const provider = createProviderForProfile({ id: 'mock', name: 'mock', kind: 'openai', baseUrl: `${mock.url}/v1`, model: 'mock-model', contextWindow: 128_000, maxOutputTokens: 256, structuredOutput: true, prices: { input: 0, output: 0 } });
      const first = createMemoryRunRepository();
      const runIds = new Map<string, string>();
      await runEval({ variants: [variant()], dataset: dataset(4), provider, model, repo: first, concurrency: 2, onResult: async (r) => void runIds.set(r.itemId, r.runId) });
      expect(mock.requests.length).toBe(8);
      const extracted = new Map<string, unknown>();
      for (const [itemId, runId] of runIds) {
        const finished = (await first.getEvents(runId)).find((e) => e.type === 'step.finished' && e.stepId === 'extract');
        extracted.set(itemId, finished?.type === 'step.finished' ? finished.output : undefined);
      }

      // A new version of the answering stage, measured against the frozen extractions.
      const edited = twoStepChain();
      const answer = edited.steps.find((s) => s.id === 'answer') as { config: Record<string, unknown> };
      answer.config.prompt = `Answer tersely. ${String(answer.config.prompt)}`;
      const before = mock.requests.length;
      const second = createMemoryRunRepository();
      const results: ItemResult[] = [];
      await runEval({
        variants: [{ name: 'two-step', kind: 'chain', chain: edited }], dataset: dataset(4), provider, model, repo: second, concurrency: 2,
        frozen: {
          stage: 'answer',
          runFor: async (_v, item) => {
            const runId = runIds.get(item.id);
            const meta = runId ? await first.getRun(runId) : undefined;
            return meta && runId ? { meta, events: await first.getEvents(runId) } : null;
          },
        },
        onResult: async (r) => void results.push(r),
      });
      const sent = mock.requests.slice(before);
      // One call per item, all of them the edited answering stage: the extraction is not called again.
      expect(sent).toHaveLength(4);
      expect(sent.every((r) => JSON.stringify(r.body).includes('Answer tersely.'))).toBe(true);
      for (const r of results) {
        const events = await second.getEvents(r.runId);
        const reused = events.find((e) => e.type === 'step.finished' && e.stepId === 'extract');
        expect(reused?.type === 'step.finished' && reused.reused).toBe(true);
        expect(reused?.type === 'step.finished' && reused.output).toEqual(extracted.get(r.itemId));
        expect((await second.getRun(r.runId))?.forkedFrom).toMatchObject({ runId: runIds.get(r.itemId), stepId: 'answer' });
      }
    } finally {
      await mock.close();
    }
  });
});

describe('a judge scorer', () => {
  const judge = {
    format: 'seamscope.chain', version: 1, id: 'judge', name: 'Judge',
    inputs: [{ name: 'output', schema: { type: 'string' }, trust: 'untrusted', required: true }, { name: 'expected', schema: { type: 'string' }, trust: 'trusted', required: true }],
    steps: [
      { id: 'verdict', kind: 'model', name: 'Verdict', position: { x: 0, y: 0 }, config: { bindings: { output: 'inputs.output', expected: 'inputs.expected' }, prompt: 'Judge: does {output} give {expected}?', outputSchema: { type: 'object', properties: { pass: { type: 'boolean' }, reason: { type: 'string' } }, required: ['pass', 'reason'] } } },
      { id: 'final', kind: 'output', name: 'Out', position: { x: 280, y: 0 }, config: { bindings: { value: 'steps.verdict' } } },
    ],
  } as const;

  it('runs its chain on each output, adds its verdict to the scores and counts its calls apart from the variant’s', async () => {
    const inner = contentProvider();
    const judgeCalls: string[] = [];
    // The judge model: right when the answer carries the day count the expected facts name.
    const provider: ModelProvider = {
      kind: 'judging',
      async call(request, ctx) {
        const text = lastUser(request);
        if (!text.startsWith('Judge:')) return inner.call(request, ctx);
        judgeCalls.push(text);
        const days = text.match(/"(\d+ days)"/)?.[1] ?? '∅';
        const pass = text.split('give')[0]?.includes(days.replace(' days', '')) ?? false;
        return { text: JSON.stringify({ pass, reason: pass ? `states ${days}` : `does not state ${days}` }), finishReason: 'stop', rawFinishReason: 'stop', usage: { inputTokens: 50, outputTokens: 5 }, requestBody: {}, rawResponse: {}, status: 200, model: 'm' };
      },
    };
    const results: ItemResult[] = [];
    await runEval({
      variants: [variant()], dataset: dataset(4), scorers: [{ type: 'judge', chain: 'judge' }], provider, model, repo: createMemoryRunRepository(), concurrency: 2,
      judges: new Map([['judge', judge as unknown as import('../chain/schema.ts').Chain]]), onResult: async (r) => void results.push(r),
    });
    expect(judgeCalls).toHaveLength(4);
    const byId = Object.fromEntries(results.map((r) => [r.itemId, r]));
    expect(byId.q0?.scores).toEqual([{ scorer: 'judge:judge', pass: true, detail: 'the judge says right: states 1 days' }]);
    // q3's document says "promptly": the answer has no day count, and the judge says so.
    expect(byId.q3).toMatchObject({ pass: false, scores: [{ pass: false, detail: 'the judge says wrong: does not state 4 days' }] });
    // The variant's own calls stay 2 per item; the judge's are counted apart.
    expect(results.every((r) => r.calls === 2 && r.judge?.calls === 1 && r.judge.inputTokens === 50)).toBe(true);
    const table = evalTable([variant()], results);
    expect(table.variants[0]).toMatchObject({ calls: 2, accuracy: 0.75, judge: { calls: 1, inputTokens: 50, outputTokens: 5 } });
    expect(formatEvalTable(table).join('\n')).toContain("judge two-step: 1.0 calls, 50 in and 5 out tokens per item (not in the variant's calls or spend)");
  });

  it('fails the item, saying why, when the judge chain is missing or returns no verdict', async () => {
    const results: ItemResult[] = [];
    await runEval({ variants: [variant()], dataset: dataset(1), scorers: [{ type: 'judge', chain: 'absent' }], provider: contentProvider(), model, repo: createMemoryRunRepository(), onResult: async (r) => void results.push(r) });
    expect(results[0]?.scores).toEqual([{ scorer: 'judge:absent', pass: false, detail: 'no judge chain "absent" was given' }]);
  });
});
