import { describe, expect, it } from 'vitest';
import { runChain } from '../engine/run.ts';
import { routedChain, twoOutputChain } from '../testing/chain-fixtures.ts';
import { createScriptedProvider } from '../testing/scripted-provider.ts';
import { createMemoryRunRepository } from '../trace/repository.ts';
import type { Chain } from '../chain/schema.ts';
import { runOutputs } from './run-outputs.ts';

const model = { name: 'test-model', maxOutputTokens: 4096, structuredOutput: true };

async function run(chain: Chain, replies: Parameters<typeof createScriptedProvider>[0], inputs: Record<string, unknown>) {
  const repo = createMemoryRunRepository();
  const meta = await runChain({ chain, inputs, provider: createScriptedProvider(replies), model, repo, countTokens: (t) => Math.ceil(t.length / 4) });
  return { meta, events: await repo.getEvents(meta.id) };
}

describe('runOutputs', () => {
  it('lists each output of a two-output run with what it returned, in chain order', async () => {
    const { events } = await run(twoOutputChain(), [{ summary: 'Appeal within 180 days.' }, { answer: '180 days' }], { document: 'Appeals within 180 days.' });
    expect(runOutputs(twoOutputChain(), events)).toEqual([
      { stepId: 'summary_out', name: 'Summary out', state: 'returned', value: 'Appeal within 180 days.' },
      { stepId: 'answer_out', name: 'Answer out', state: 'returned', value: '180 days' },
    ]);
  });

  it('says why an output has nothing: its model step failed, so it never ran', async () => {
    const bad = '{"wrong": true}';
    const { meta, events } = await run(twoOutputChain(), [{ summary: 'Appeal within 180 days.' }, bad, bad, bad, bad], { document: 'Appeals within 180 days.' });
    expect(meta.status).toBe('failed');
    const [first, second] = runOutputs(twoOutputChain(), events);
    expect(first).toMatchObject({ stepId: 'summary_out', state: 'returned' });
    expect(second?.state).not.toBe('returned');
    expect(second?.reason).toBeTruthy();
  });

  it('names the route taken instead of a skipped branch output', async () => {
    const { events } = await run(routedChain(), [{ category: 'billing' }], { ticket: 'Refund my order' });
    const byId = new Map(runOutputs(routedChain(), events).map((o) => [o.stepId, o]));
    expect(byId.get('billing_reply')).toMatchObject({ state: 'returned', value: 'billing' });
    expect(byId.get('tech_reply')).toMatchObject({ state: 'skipped' });
    expect(byId.get('tech_reply')?.reason).toContain('chose billing_reply');
  });

  it('has nothing to say without a chain or without output steps', () => {
    expect(runOutputs(undefined, [])).toEqual([]);
    const chain = twoOutputChain();
    chain.steps = chain.steps.filter((s) => s.kind !== 'output');
    expect(runOutputs(chain, [])).toEqual([]);
  });
});
