import { describe, expect, it } from 'vitest';
import type { Chain } from '../chain/schema.ts';
import { runChain } from '../engine/run.ts';
import { loadTokenCounter } from '../providers/tokenizer.ts';
import { createScriptedProvider } from '../testing/scripted-provider.ts';
import type { TraceEvent } from '../trace/events.ts';
import { createMemoryRunRepository } from '../trace/repository.ts';
import { cutToTokens } from './budget.ts';

const chunks = Array.from({ length: 5 }, (_, i) => `[chunk ${i + 1}] ${'policy text '.repeat(40)}`);

function budgetChain(truncate: unknown): Chain {
  return {
    format: 'seamscope.chain', version: 1, id: 'budget', name: 'Budget',
    inputs: [{ name: 'chunks', schema: { type: 'array' }, trust: 'trusted', required: true }, { name: 'question', schema: { type: 'string' }, trust: 'trusted', required: true }],
    steps: [{
      id: 'generate', kind: 'model', name: 'Generate', position: { x: 0, y: 0 },
      config: {
        bindings: { chunks: 'inputs.chunks', question: 'inputs.question' }, prompt: 'Context:\n{chunks}\n\nQuestion: {question}',
        outputSchema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false },
        inputBudget: 300, truncate, retries: 0,
      },
    }],
  };
}

describe('input budget', () => {
  it('cuts the named binding from its end, and records exactly what was cut', async () => {
    const countTokens = await loadTokenCounter();
    const provider = createScriptedProvider([{ answer: 'ok' }]);
    const repo = createMemoryRunRepository();
    const run = await runChain({ chain: budgetChain({ binding: 'chunks', from: 'end' }), inputs: { chunks, question: 'Which chunk?' }, provider, model: { name: 'm', maxOutputTokens: 100, structuredOutput: true }, repo, countTokens });
    expect(run.status).toBe('succeeded');
    const sent = provider.requests[0]?.messages.map((m) => m.content).join('\n') ?? '';
    expect(sent).toContain('[chunk 1]');
    expect(sent).not.toContain('[chunk 5]');
    expect(sent).toContain('Question: Which chunk?');
    const attempt = (await repo.getEvents(run.id)).find((e): e is Extract<TraceEvent, { type: 'step.attempt' }> => e.type === 'step.attempt');
    const t = attempt?.record.truncation;
    expect(t?.cutText).toContain('[chunk 5]');
    expect(t?.totalAfter).toBeLessThanOrEqual(300);
    expect(t?.totalBefore).toBeGreaterThan(300);
    expect(t?.bindingTokensKept).toBeLessThan(t?.bindingTokensBefore ?? 0);
  });

  it('fails an over-budget step without a truncation policy instead of cutting silently', async () => {
    const provider = createScriptedProvider([]);
    const run = await runChain({ chain: budgetChain(null), inputs: { chunks, question: 'q' }, provider, model: { name: 'm', maxOutputTokens: 100, structuredOutput: true }, repo: createMemoryRunRepository(), countTokens: (t) => Math.ceil(t.length / 4) });
    expect(run.status).toBe('failed');
    expect(run.error).toContain('over_budget');
    expect(provider.requests).toHaveLength(0);
  });

  it('keeps the longest prefix or suffix that fits', () => {
    const count = (t: string) => t.length;
    expect(cutToTokens('abcdef', 4, 'end', count)).toEqual({ kept: 'abcd', cut: 'ef' });
    expect(cutToTokens('abcdef', 4, 'start', count)).toEqual({ kept: 'cdef', cut: 'ab' });
    expect(cutToTokens('abc', 0, 'end', count)).toEqual({ kept: '', cut: 'abc' });
  });
});
