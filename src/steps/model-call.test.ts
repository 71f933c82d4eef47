import { describe, expect, it } from 'vitest';
import { hashValue } from '../chain/hash.ts';
import { runChain } from '../engine/run.ts';
import { createScriptedProvider, type ScriptedReply } from '../testing/scripted-provider.ts';
import { twoStepChain } from '../testing/chain-fixtures.ts';
import type { AttemptRecord, TraceEvent } from '../trace/events.ts';
import { createMemoryRunRepository } from '../trace/repository.ts';

const inputs = { document: 'Appeals must be filed within 180 days.', question: 'How many days?' };
const countTokens = (t: string) => Math.ceil(t.length / 4);

async function run(chain: ReturnType<typeof twoStepChain>, replies: ScriptedReply[], modelName = 'model-a', maxOutputTokens = 4096) {
  const provider = createScriptedProvider(replies);
  const repo = createMemoryRunRepository();
  const meta = await runChain({ chain, inputs, provider, model: { name: modelName, maxOutputTokens, structuredOutput: true }, repo, countTokens });
  const events = await repo.getEvents(meta.id);
  const records = events.filter((e): e is Extract<TraceEvent, { type: 'step.attempt' }> => e.type === 'step.attempt').map((e) => ({ stepId: e.stepId, record: e.record }));
  return { meta, provider, records };
}

const expectedHash = (cfg: Record<string, unknown>, params: AttemptRecord['params']) =>
  hashValue({ system: cfg.system ?? '', prompt: cfg.prompt, schema: cfg.outputSchema, params, budget: 0, truncate: null });

describe('contract call: parameters, config hash and contract made once per config', () => {
  it('gives every attempt the hash of its own parameters, across runs of one chain object', async () => {
    const chain = twoStepChain();
    const replies = () => [{ facts: ['a'] }, { answer: 'x' }];
    const a1 = await run(chain, replies(), 'model-a');
    const a2 = await run(chain, replies(), 'model-a');
    const b = await run(chain, replies(), 'model-b');
    const capped = await run(chain, replies(), 'model-a', 100);
    const hashOf = (r: typeof a1, step: string) => r.records.find((x) => x.stepId === step)?.record.configHash;
    expect(hashOf(a1, 'extract')).toBe(hashOf(a2, 'extract'));
    expect(hashOf(a1, 'extract')).not.toBe(hashOf(b, 'extract'));
    expect(hashOf(a1, 'extract')).not.toBe(hashOf(capped, 'extract'));
    expect(hashOf(a1, 'extract')).not.toBe(hashOf(a1, 'answer'));
    for (const r of [a1, a2, b, capped]) {
      for (const { stepId, record } of r.records) {
        const cfg = chain.steps.find((s) => s.id === stepId)?.config as Record<string, unknown>;
        expect(record.configHash).toBe(expectedHash(cfg, record.params));
      }
    }
    expect(b.records[0]?.record.params).toEqual({ model: 'model-b', maxTokens: 1024, temperature: 0, structured: true, stream: false });
    expect(capped.records[0]?.record.params.maxTokens).toBe(100);
  });

  it('sends the same contract on every call: name, schema and strictness', async () => {
    const chain = twoStepChain();
    const { provider } = await run(chain, [{ facts: ['a'] }, { answer: 'x' }]);
    const again = await run(chain, [{ facts: ['a'] }, { answer: 'x' }]);
    const extract = chain.steps[0]?.config as { outputSchema: unknown };
    for (const p of [provider, again.provider]) {
      expect(p.requests[0]?.contract).toEqual({ name: 'output', schema: extract.outputSchema, strict: true });
      expect(p.requests[1]?.contract?.strict).toBe(true);
    }
  });

  it('keeps each attempt record as it was sent when a retry adds feedback', async () => {
    const { meta, records, provider } = await run(twoStepChain({ retries: 2 }), [{ facts: 'no' }, { facts: 7 }, { facts: ['ok'] }, { answer: 'x' }]);
    expect(meta.status).toBe('succeeded');
    const tries = records.filter((r) => r.stepId === 'extract').map((r) => r.record);
    expect(tries.map((t) => t.messages.length)).toEqual([1, 3, 5]);
    expect(tries.map((t) => t.segments.filter((s) => s.kind === 'feedback').length)).toEqual([0, 1, 2]);
    tries.forEach((t, i) => expect(t.messages).toEqual(provider.requests[i]?.messages));
    expect(tries[1]?.messages.slice(0, 1)).toEqual(tries[0]?.messages);
    for (const t of tries) for (const s of t.segments) expect(s.tokens).toBe(countTokens(s.text));
  });
});
