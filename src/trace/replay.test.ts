import { describe, expect, it } from 'vitest';
import { runChain } from '../engine/run.ts';
import { twoStepChain } from '../testing/chain-fixtures.ts';
import { createScriptedProvider } from '../testing/scripted-provider.ts';
import { createMemoryRunRepository } from './repository.ts';
import { buildRunView } from './replay.ts';
import type { TraceEvent } from './events.ts';

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
    const view = buildRunView((await repo.getRun(meta.id))!, events);
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
