import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseChain } from '../chain/parse.ts';
import type { Chain } from '../chain/schema.ts';
import { runChain } from '../engine/run.ts';
import { createDemoProvider } from '../providers/demo-model.ts';
import { demoProfile, runModelSettings } from '../providers/profiles.ts';
import { loadTokenCounter } from '../providers/tokenizer.ts';
import { readCorpus } from '../testing/corpus.ts';
import { twoStepChain } from '../testing/chain-fixtures.ts';
import { createScriptedProvider } from '../testing/scripted-provider.ts';
import type { RunMeta, TraceEvent } from './events.ts';
import { importOtlpTrace } from './otlp/import.ts';
import { buildRunView, createRunViewBuilder, type RunView } from './replay.ts';
import { createMemoryRunRepository } from './repository.ts';
import { stepRegistry } from '../steps/index.ts';

/**
 * The live replay folds events one by one (createRunViewBuilder); the stored replay, inspect
 * and diff build the view from the whole trace (buildRunView). Over real runs, at every prefix
 * (sampled on long traces), the two must agree, and no view handed out may change afterwards.
 */
interface Trace { name: string; meta: RunMeta; events: TraceEvent[] }

const demo = (file: string) => readFileSync(new URL(`../../public/demo/${file}`, import.meta.url), 'utf8');

async function demoRun(file: string): Promise<Trace> {
  const parsed = parseChain(demo(file), stepRegistry);
  if (!parsed.ok) throw new Error(`${file} does not parse`);
  const chain = parsed.chain;
  const files = (chain.meta?.inputFiles ?? {}) as Record<string, string>;
  const inputs = Object.fromEntries(chain.inputs.map((i) => [i.name, files[i.name] ? demo(files[i.name] as string) : i.example]));
  const repo = createMemoryRunRepository();
  const meta = await runChain({ chain, inputs, provider: createDemoProvider(), model: runModelSettings(demoProfile), repo, countTokens: await loadTokenCounter() });
  return { name: file, meta: (await repo.getRun(meta.id))!, events: await repo.getEvents(meta.id) };
}

async function scriptedRun(name: string, replies: Parameters<typeof createScriptedProvider>[0], chain: Chain = twoStepChain({ retries: 1 })): Promise<Trace> {
  const repo = createMemoryRunRepository();
  const meta = await runChain({
    chain, inputs: { document: 'Appeal within 180 days.', question: 'How many days?' },
    provider: createScriptedProvider(replies), model: { name: 'm', maxOutputTokens: 100, structuredOutput: true }, repo, countTokens: (t) => t.length,
  });
  return { name, meta: (await repo.getRun(meta.id))!, events: await repo.getEvents(meta.id) };
}

/** A run stopped after its first step, then resumed: the trace holds both parts and run.resumed. */
async function resumedRun(): Promise<Trace> {
  const repo = createMemoryRunRepository();
  const common = {
    chain: twoStepChain(), inputs: { document: 'Appeal within 180 days.', question: 'How many days?' },
    model: { name: 'm', maxOutputTokens: 100, structuredOutput: true }, repo, countTokens: (t: string) => t.length,
  };
  const stop = new AbortController();
  const first = await runChain({
    ...common, provider: createScriptedProvider([{ facts: ['180 days'] }, { answer: 'never sent' }]), signal: stop.signal,
    onEvent: (e) => { if (e.type === 'step.finished' && e.stepId === 'extract') stop.abort(); },
  });
  await repo.updateRun(first.id, { status: 'interrupted' });
  const events = await repo.getEvents(first.id);
  await runChain({ ...common, provider: createScriptedProvider([{ answer: 'Within 180 days.' }]), runId: first.id, resume: { events } });
  return { name: 'resumed', meta: (await repo.getRun(first.id))!, events: await repo.getEvents(first.id) };
}

function otlpRun(file: string): Trace {
  const result = importOtlpTrace(readCorpus(`traces/otlp/${file}`), stepRegistry);
  if (!result.ok) throw new Error(result.message);
  return { name: file, meta: result.run, events: result.events };
}

/** Every prefix up to 300 events, then about 60 spread over the rest, and the whole trace. */
function prefixes(n: number): Set<number> {
  const at = new Set<number>([0, n]);
  for (let i = 1; i <= Math.min(n, 300); i++) at.add(i);
  for (let i = 300; i < n; i += Math.max(1, Math.floor((n - 300) / 60))) at.add(i);
  return at;
}

function checkFold({ meta, events }: Trace): { checked: number; boundaries: number } {
  const builder = createRunViewBuilder(meta, stepRegistry);
  const handedOut: { view: RunView; copy: RunView }[] = [];
  const at = prefixes(events.length);
  let previous: RunView | null = null;
  for (let i = 0; i <= events.length; i++) {
    if (at.has(i)) {
      const view = builder.view();
      expect(view, `after ${i} of ${events.length} events`).toEqual(buildRunView(meta, events.slice(0, i), stepRegistry));
      // A step no event touched since the last view keeps its object.
      if (previous) for (const s of view.steps) if (previous.steps.some((p) => p === s)) expect(previous.steps.indexOf(s)).toBe(view.steps.indexOf(s));
      handedOut.push({ view, copy: structuredClone(view) });
      previous = view;
    }
    const event = events[i];
    if (event) builder.add(event);
  }
  for (const { view, copy } of handedOut) expect(view).toEqual(copy);
  return { checked: handedOut.length, boundaries: builder.view().boundaries.length };
}

describe('createRunViewBuilder folds to what buildRunView builds', () => {
  it('on scripted runs: a retry, a step that fails for good, a run resumed after an interruption', async () => {
    const traces = [
      await scriptedRun('retry', ['not json', { facts: ['180 days'] }, { answer: 'Within 180 days.' }]),
      await scriptedRun('fails', ['not json', 'still not json']),
      await resumedRun(),
    ];
    expect(traces[2]!.events.some((e) => e.type === 'run.resumed')).toBe(true);
    for (const trace of traces) expect(checkFold(trace).checked, trace.name).toBeGreaterThan(1);
  });

  it('on every demo chain run on the demo model (routes, map units, checks, fan-in)', async () => {
    const files = (JSON.parse(demo('index.json')) as { file: string }[]).map((d) => d.file);
    let boundaries = 0;
    for (const file of files) boundaries += checkFold(await demoRun(file)).boundaries;
    expect(boundaries).toBeGreaterThan(20);
  }, 120_000);

  it('on OTLP traces recorded by other tools', () => {
    for (const file of ['openlit-1.27-openai-chat.otlp.json', 'openllmetry-0.33.9-openai-chat.otlp.json', 'vercel-ai-sdk-v6-openai.otlp.json']) checkFold(otlpRun(file));
  });

  it('hands out the same view when nothing was added, and keeps untouched boundaries', async () => {
    const { meta, events } = await scriptedRun('retry', ['not json', { facts: ['180 days'] }, { answer: 'Within 180 days.' }]);
    const builder = createRunViewBuilder(meta, stepRegistry);
    const last = events.findIndex((e) => e.type === 'step.started' && e.stepId === 'final');
    for (const e of events.slice(0, last)) builder.add(e);
    const before = builder.view();
    expect(builder.view()).toBe(before);
    const seam = before.boundaries.find((b) => b.producer === 'extract');
    for (const e of events.slice(last)) builder.add(e);
    const after = builder.view();
    expect(after.boundaries.find((b) => b.producer === 'extract')).toBe(seam);
    expect(after.steps[0]).toBe(before.steps[0]);
  });
});
