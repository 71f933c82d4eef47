import { describe, expect, it } from 'vitest';
import { runChain } from '../../src/engine/index.ts';
import { demoProfile, type EndpointProfile } from '../../src/providers/index.ts';
import { twoStepChain } from '../../src/testing/index.ts';
import { createScriptedProvider } from '../../src/testing/index.ts';
import { createMemoryRunRepository } from '../../src/trace/index.ts';
import { profileForRun } from './run-profile.ts';

const endpoint = (id: string, baseUrl: string): EndpointProfile => ({
  ...demoProfile, id, name: id, kind: 'openai', baseUrl, model: 'gpt-4.1-mini',
});
const work = endpoint('work', 'https://llm.work.example/v1');
const home = endpoint('home', 'http://127.0.0.1:8787/v1');

/** A run made on `home` that stopped after its first step, as the repository keeps it. */
async function interruptedRun() {
  const repo = createMemoryRunRepository();
  const stop = new AbortController();
  const meta = await runChain({
    chain: twoStepChain(), inputs: { document: 'Appeal within 180 days.', question: 'How many days?' },
    provider: createScriptedProvider([{ facts: ['180 days'] }]), model: { name: home.model, maxOutputTokens: 100, structuredOutput: true },
    profileId: home.id, repo, countTokens: (t) => t.length, signal: stop.signal,
    onEvent: (e) => { if (e.type === 'step.finished') stop.abort(); },
  });
  await repo.updateRun(meta.id, { status: 'interrupted' });
  return (await repo.getRun(meta.id))!;
}

describe('profileForRun: a resumed run calls the profile it recorded', () => {
  it('finds the run\'s profile by the id the engine stored, not the first (or selected) one with the same model', async () => {
    const meta = await interruptedRun();
    expect(meta.profileId).toBe('home');
    expect(profileForRun(meta, [demoProfile, work, home])).toEqual({ profile: home });
  });

  it('says so when that profile is gone, instead of resuming on another endpoint', async () => {
    const meta = await interruptedRun();
    const found = profileForRun(meta, [demoProfile, work]);
    expect(found).toEqual({ error: expect.stringMatching(/^the endpoint profile this run used \(scripted · gpt-4.1-mini\) no longer exists on this device, and it will not resume on another endpoint/) });
    expect(profileForRun(meta, [])).toEqual({ error: 'no endpoint profile is loaded yet' });
  });

  it('matches a run recorded before runs kept the id by provider and model, only when one profile fits', () => {
    const old = { provider: 'openai', model: 'gpt-4.1-mini' };
    expect(profileForRun(old, [demoProfile, home])).toEqual({ profile: home });
    expect(profileForRun(old, [demoProfile, work, home])).toEqual({ error: expect.stringContaining('2 profiles match openai · gpt-4.1-mini') });
    expect(profileForRun(old, [demoProfile])).toEqual({ error: expect.stringContaining('no endpoint profile on this device matches') });
  });
});
