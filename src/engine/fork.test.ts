import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Chain } from '../chain/schema.ts';
import { createDemoProvider } from '../providers/demo-model.ts';
import { twoStepChain } from '../testing/chain-fixtures.ts';
import { createScriptedProvider } from '../testing/scripted-provider.ts';
import { createMemoryRunRepository } from '../trace/repository.ts';
import { downstreamOf, planFork, rerunFromStep } from './fork.ts';
import { runChain } from './run.ts';

const model = { name: 'm', maxOutputTokens: 2048, structuredOutput: true };
const countTokens = (t: string) => Math.ceil(t.length / 4);
const demo = (file: string) => JSON.parse(readFileSync(new URL(`../../public/demo/${file}`, import.meta.url), 'utf8')) as Chain;
const statute = readFileSync(new URL('../../public/demo/documents/42-USC-1395ff.md', import.meta.url), 'utf8');

describe('rerun from a step', () => {
  it('plans which steps are reused and which rerun', () => {
    const chain = twoStepChain();
    expect([...downstreamOf(chain, 'extract')].sort()).toEqual(['answer', 'extract', 'final']);
    const plan = planFork(chain, [
      { type: 'step.finished', at: 1, stepId: 'extract', status: 'succeeded', output: { facts: [] }, latencyMs: 1 },
      { type: 'step.finished', at: 2, stepId: 'answer', status: 'succeeded', output: { answer: 'a' }, latencyMs: 1 },
    ], 'answer');
    expect(plan.reused).toEqual(['extract']);
    expect(plan.rerun).toEqual(['answer', 'final']);
  });

  it('forks the summarise demo at the summary with the numbers put back: the answer now has them, upstream is not called', async () => {
    const repo = createMemoryRunRepository();
    const chain = demo('summarise-then-answer.chain.json');
    const inputs = { document: statute, question: 'How many days do I have to request a reconsideration of a denied Medicare claim?' };
    const parent = await runChain({ chain, inputs, provider: createDemoProvider(), model, repo, countTokens });
    expect(JSON.stringify(parent.output)).toContain('promptly');
    const edited = { summary: 'Appeal rights: reconsideration must be requested by not later than the end of the 180-day period beginning on the date the individual receives notice of the redetermination.' };
    const provider = createDemoProvider();
    let calls = 0;
    const counting = { kind: provider.kind, call: (...args: Parameters<typeof provider.call>) => { calls++; return provider.call(...args); } };
    const fork = await rerunFromStep({ parent, parentEvents: await repo.getEvents(parent.id), fromStep: 'summarise', editedOutput: { value: edited }, provider: counting, model, repo, countTokens });
    expect(fork.status).toBe('succeeded');
    expect(calls).toBe(1);
    expect(JSON.stringify(fork.output)).toContain('180');
    expect(fork.forkedFrom).toEqual({ runId: parent.id, stepId: 'summarise', editedOutput: true, reused: ['summarise'] });
    expect((await repo.getRun(fork.id))?.forkedFrom?.runId).toBe(parent.id);
  });

  it('reruns the fork step itself with an edited prompt, reusing everything upstream', async () => {
    const repo = createMemoryRunRepository();
    const inputs = { document: 'x', question: 'q' };
    const parent = await runChain({ chain: twoStepChain(), inputs, provider: createScriptedProvider([{ facts: ['a'] }, { answer: 'one' }]), model, repo, countTokens });
    const edited = twoStepChain();
    edited.steps[1]!.config.prompt = 'Facts: {facts}\nQuestion: {question}\nBe brief.';
    const provider = createScriptedProvider([{ answer: 'two' }]);
    const fork = await rerunFromStep({ parent, parentEvents: await repo.getEvents(parent.id), fromStep: 'answer', chain: edited, provider, model, repo, countTokens });
    expect(fork.output).toBe('two');
    expect(provider.requests).toHaveLength(1);
    expect(provider.requests[0]?.messages.at(-1)?.content).toContain('Be brief.');
  });
});
