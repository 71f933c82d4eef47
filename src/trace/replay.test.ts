import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseChain } from '../chain/parse.ts';
import { runChain } from '../engine/run.ts';
import { createDemoProvider } from '../providers/demo-model.ts';
import { demoProfile, runModelSettings } from '../providers/profiles.ts';
import { loadTokenCounter } from '../providers/tokenizer.ts';
import { twoStepChain } from '../testing/chain-fixtures.ts';
import { createScriptedProvider } from '../testing/scripted-provider.ts';
import { createMemoryRunRepository } from './repository.ts';
import { boundaryLabel, buildRunView, checksOnBoundary, stepLabel } from './replay.ts';
import type { TraceEvent } from './events.ts';
import { stepRegistry } from '../steps/index.ts';

describe('buildRunView', () => {
  it('shows each boundary with its source, intermediate and what the consumer received', async () => {
    const repo = createMemoryRunRepository();
    const provider = createScriptedProvider([{ facts: ['an appeals process exists'] }, { answer: 'File promptly.' }]);
    const meta = await runChain({
      chain: twoStepChain(), inputs: { document: 'Appeal within 180 days.', question: 'How many days?' },
      provider, model: { name: 'm', maxOutputTokens: 100, structuredOutput: true }, repo, countTokens: (t) => t.length,
    });
    const events = await repo.getEvents(meta.id);
    // A trace survives a JSON round trip unchanged (it is what export and import rely on).
    expect(JSON.parse(JSON.stringify(events)) as TraceEvent[]).toEqual(events);
    const view = buildRunView((await repo.getRun(meta.id))!, events, stepRegistry);
    expect(view.steps.map((s) => [s.stepId, s.status])).toEqual([['extract', 'succeeded'], ['answer', 'succeeded'], ['final', 'succeeded']]);
    const seam = view.boundaries.find((b) => b.producer === 'extract' && b.consumer === 'answer');
    expect(seam?.sources).toEqual([{ name: 'document', text: 'Appeal within 180 days.' }]);
    expect(seam?.intermediate).toEqual({ facts: ['an appeals process exists'] });
    expect(seam?.received?.messages.at(-1)?.content).toContain('an appeals process exists');
    expect(seam?.received?.segments.map((s) => s.kind)).toContain('binding:facts');
    expect(seam?.consumerOutput).toEqual({ answer: 'File promptly.' });
    expect(view.boundaries.map((b) => `${b.producer}->${b.consumer}`)).toEqual(['extract->answer', 'answer->final']);
  });
});

describe('checks and labels on boundaries, over the retrieval demo', () => {
  it('the citation check belongs to the boundaries into its gate, not to the earlier retrieve → rerank handoff; labels read name first', async () => {
    const demo = (file: string) => readFileSync(new URL(`../../public/demo/${file}`, import.meta.url), 'utf8');
    const parsed = parseChain(demo('retrieval-pipeline.chain.json'), stepRegistry);
    if (!parsed.ok) throw new Error('the retrieval demo does not parse');
    const chain = parsed.chain;
    const files = (chain.meta?.inputFiles ?? {}) as Record<string, string>;
    const inputs = Object.fromEntries(chain.inputs.map((i) => [i.name, files[i.name] ? demo(files[i.name] as string) : i.example]));
    const repo = createMemoryRunRepository();
    const meta = await runChain({ chain, inputs, provider: createDemoProvider(), model: runModelSettings(demoProfile), repo, countTokens: await loadTokenCounter() });
    const view = buildRunView((await repo.getRun(meta.id))!, await repo.getEvents(meta.id), stepRegistry);
    expect(view.steps.find((s) => s.stepId === 'citations')?.checks.map((c) => c.check)).toEqual(['citations']);
    const withChecks = view.boundaries.filter((b) => checksOnBoundary(view, b).length > 0).map((b) => `${b.producer}->${b.consumer}`);
    expect(withChecks.sort()).toEqual(['generate->citations', 'retrieve->citations']);
    const earlier = view.boundaries.find((b) => b.producer === 'retrieve' && b.consumer === 'rerank')!;
    expect(checksOnBoundary(view, earlier)).toEqual([]);
    const rerank = view.steps.find((s) => s.stepId === 'rerank')!.name;
    expect(boundaryLabel(view, earlier)).toBe(`${view.steps.find((s) => s.stepId === 'retrieve')!.name} (retrieve) → ${rerank} (rerank)`);
    expect(boundaryLabel(view, { producer: 'ghost', consumer: 'rerank' })).toBe(`ghost → ${rerank} (rerank)`);
  }, 60_000);
});

describe('stepLabel', () => {
  it('is the name, then the id; an id alone when there is no other name', () => {
    expect(stepLabel('model_2', 'Classify')).toBe('Classify (model_2)');
    expect(stepLabel('answer', 'answer')).toBe('answer');
    expect(stepLabel('answer', undefined)).toBe('answer');
  });
});

describe('buildRunView on a hostile trace', () => {
  it('a chain whose steps read each other in a cycle still gives a view, with each input once', () => {
    const step = (id: string, reads: string) => ({
      id, kind: 'model', name: id, position: { x: 0, y: 0 },
      config: { bindings: { a: reads, doc: 'inputs.document' }, prompt: '{a} {doc}', outputSchema: { type: 'object', properties: { x: { type: 'string' } } } },
    });
    const chain = {
      format: 'seamscope.chain', version: 1, id: 'cycle', name: 'Cycle',
      inputs: [{ name: 'document', schema: { type: 'string' }, trust: 'trusted', required: true }],
      steps: [step('a', 'steps.b.x'), step('b', 'steps.a.x')],
    };
    const meta = {
      id: 'r', traceVersion: 1, chainId: 'cycle', chainName: 'Cycle', chainRevision: 'x', chain,
      inputs: { document: 'Appeal within 180 days.' }, provider: 'demo', model: 'demo', status: 'succeeded' as const, startedAt: 0,
    };
    const events: TraceEvent[] = ['a', 'b'].flatMap((id) => [
      { type: 'step.started', at: 1, stepId: id } as TraceEvent,
      { type: 'step.finished', at: 2, stepId: id, status: 'succeeded', output: { x: id }, latencyMs: 1 } as TraceEvent,
    ]);
    const view = buildRunView(meta, events, stepRegistry);
    expect(view.boundaries.map((b) => `${b.producer}->${b.consumer}`).sort()).toEqual(['a->b', 'b->a']);
    for (const b of view.boundaries) expect(b.sources).toEqual([{ name: 'document', text: 'Appeal within 180 days.' }]);
  });
});
