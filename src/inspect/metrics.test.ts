import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Chain } from '../chain/schema.ts';
import { rerunFromStep } from '../engine/fork.ts';
import { runChain } from '../engine/run.ts';
import { createDemoProvider } from '../providers/demo-model.ts';
import { twoStepChain } from '../testing/chain-fixtures.ts';
import { createScriptedProvider } from '../testing/scripted-provider.ts';
import { createMemoryRunRepository } from '../trace/repository.ts';
import { percentile, stepMetrics } from './metrics.ts';
import { diffRuns } from './run-diff.ts';

const model = { name: 'm', maxOutputTokens: 2048, structuredOutput: true };
const countTokens = (t: string) => Math.ceil(t.length / 4);
const inputs = { document: 'Appeal within 180 days.', question: 'How many days?' };

describe('per-step metrics', () => {
  it('counts validation failures, retries, abstentions, latency percentiles and tokens across runs', async () => {
    const repo = createMemoryRunRepository();
    const runs = [];
    // Run 1 clean; run 2 needs a retry at extract; run 3 fails extract twice and abstains there.
    const scripts = [[{ facts: [] }, { answer: 'a' }], [{ facts: 'x' }, { facts: [] }, { answer: 'b' }], ['nope', 'nope']];
    for (const script of scripts) {
      const meta = await runChain({ chain: twoStepChain({ onFail: 'abstain' }), inputs, provider: createScriptedProvider(script), model, repo, countTokens });
      runs.push({ meta, events: await repo.getEvents(meta.id) });
    }
    const metrics = stepMetrics(runs);
    const extract = metrics.get('extract')!;
    expect(extract.runs).toBe(3);
    expect(extract.attempts).toBe(5);
    expect(extract.validationFailureRate).toBeCloseTo(3 / 5);
    expect(extract.retryRate).toBeCloseTo(2 / 3);
    expect(extract.abstainRate).toBeCloseTo(1 / 3);
    expect(extract.inputTokens).toBe(50);
    expect(metrics.get('answer')?.runs).toBe(2);
    expect(percentile([5, 1, 3, 2, 4], 50)).toBe(3);
    expect(percentile([...Array(100).keys()], 95)).toBe(94);
  });
});

describe('diffRuns', () => {
  it('shows what changed between a run and its fork, with facts survived per boundary', async () => {
    const repo = createMemoryRunRepository();
    const chain = JSON.parse(readFileSync(new URL('../../public/demo/summarise-then-answer.chain.json', import.meta.url), 'utf8')) as Chain;
    const statute = readFileSync(new URL('../../public/demo/documents/42-USC-1395ff.md', import.meta.url), 'utf8');
    const parent = await runChain({ chain, inputs: { document: statute, question: 'How many days do I have to request a reconsideration of a denied Medicare claim?' }, provider: createDemoProvider(), model, repo, countTokens });
    const parentEvents = await repo.getEvents(parent.id);
    const fork = await rerunFromStep({ parent, parentEvents, fromStep: 'summarise', editedOutput: { value: { summary: 'Redetermination: within the 120-day period. Reconsideration: not later than the end of the 180-day period after notice of the redetermination. Expedited: 72-hour period.' } }, provider: createDemoProvider(), model, repo, countTokens });
    const diff = diffRuns({ meta: parent, events: parentEvents }, { meta: fork, events: await repo.getEvents(fork.id) });
    const summarise = diff.steps.find((s) => s.stepId === 'summarise')!;
    expect(summarise.outputChanged).toBe(true);
    // The fork keeps the three deadlines the parent's summary lost; the parent's paraphrase keeps
    // more of the statute's named conditions ("only if the individual files notice…").
    expect(summarise.figuresSurvivedB).toBeGreaterThan(summarise.figuresSurvivedA ?? 0);
    expect(summarise.factsSurvivedB).not.toBe(summarise.factsSurvivedA);
    expect(diff.steps.find((s) => s.stepId === 'answer')?.outputChanged).toBe(true);
    expect(diff.outputChanged).toBe(true);
    expect(summarise.reusedB).toBe(true);
    expect(summarise.reusedA).toBe(false);
    // The fork's reused step is not counted as a run of that step in the metrics.
    const metrics = stepMetrics([{ meta: parent, events: parentEvents }, { meta: fork, events: await repo.getEvents(fork.id) }]);
    expect(metrics.get('summarise')?.runs).toBe(1);
    expect(metrics.get('answer')?.runs).toBe(2);
  });
});
