import { describe, expect, it } from 'vitest';
import { runChain } from '../engine/run.ts';
import { twoStepChain } from '../testing/chain-fixtures.ts';
import { createScriptedProvider } from '../testing/scripted-provider.ts';
import { createMemoryRunRepository } from '../trace/repository.ts';
import type { Boundary } from '../trace/replay.ts';
import { inspectBoundary, inspectRun } from './boundary.ts';
import { seedQuestion, seedQuotes, seedSource, seedSummary } from '../testing/seed-example.ts';

/** Runs the two-step chain (extract → answer) on the seed example with a scripted extract output. */
async function inspectSeed(facts: string[], opts: Parameters<typeof inspectRun>[2] = {}) {
  const repo = createMemoryRunRepository();
  const provider = createScriptedProvider([{ facts }, { answer: 'You should file promptly.' }]);
  const meta = await runChain({
    chain: twoStepChain(), inputs: { document: seedSource, question: seedQuestion }, provider,
    model: { name: 'm', maxOutputTokens: 100, structuredOutput: true }, repo, countTokens: (t) => t.length,
  });
  const report = inspectRun(meta, await repo.getEvents(meta.id), opts);
  const seam = report.boundaries.find((b) => b.producer === 'extract' && b.consumer === 'answer');
  if (!seam) throw new Error('no extract → answer boundary');
  return { report, seam };
}

const boundary = (over: Partial<Boundary>): Boundary => ({
  id: 'data:summarise->answer:summary', producer: 'summarise', consumer: 'answer', binding: 'summary',
  intermediate: seedSummary, sources: [{ name: 'document', text: seedSource }], received: null, consumerOutput: undefined, ...over,
});

describe('inspectRun', () => {
  it('flags the summary that said "promptly" as a likely lossy handoff', async () => {
    const { report, seam } = await inspectSeed(seedSummary.split('. '));
    expect(seam.question).toBe(seedQuestion);
    expect(seam.asked).toEqual(['duration', 'date']);
    expect(seam.lossy).toBe(true);
    // The likeliest answer is named with why; the weaker candidate is a note.
    expect(seam.askedFacts.map((a) => a.fact.text)).toEqual(['180 calendar days', '72 hours']);
    expect(seam.reasons).toHaveLength(1);
    expect(seam.reasons[0]).toMatch(/^question asks for "180 calendar days" \(duration, .*matched day; a duration, as "How many days" asks\): dropped$/);
    expect(seam.notes.join(' ')).toContain('"72 hours"');
    expect(seam.survival.dropped.filter((f) => f.kind === 'duration').map((f) => f.text)).toEqual(['180 calendar days', '72 hours']);
    // The answer → output boundary asks nothing, so it is never lossy.
    expect(report.boundaries.find((b) => b.consumer === 'final')?.lossy).toBe(false);
  });

  it('does not flag an intermediate that quotes the deadlines verbatim', async () => {
    const { seam } = await inspectSeed(seedQuotes.relevant_sections.map((s) => s.quote));
    expect(seam.lossy).toBe(false);
    expect(seam.survival.byKind.duration).toEqual({ total: 2, dropped: 0 });
  });

  it('notes a partial drop without flagging it when a complete answer survived, unless strict', async () => {
    const kept = ['Reconsideration may be requested within 180 calendar days.'];
    const { seam } = await inspectSeed(kept);
    expect(seam.lossy).toBe(false);
    expect(seam.notes.join(' ')).toMatch(/"72 hours".*dropped; the facts asked at .*line 1 all survived/);
    const strict = await inspectSeed(kept, { strict: true });
    expect(strict.seam.lossy).toBe(true);
  });

  it('takes a given question over the one in the prompt', async () => {
    const { seam } = await inspectSeed(seedSummary.split('. '), { question: 'How much does an appeal cost?' });
    expect(seam.asked).toEqual(['money', 'percentage']);
    // The source states no amount: nothing it states is what this question asks.
    expect(seam.askedFacts).toEqual([]);
    expect(seam.lossy).toBe(false);
  });
});

describe('inspectBoundary', () => {
  it('finds a "Question:" label in the template and ignores "?" lines inside the intermediate', () => {
    const report = inspectBoundary(boundary({
      intermediate: 'Is there a deadline? The plan does not say.',
      received: {
        messages: [],
        segments: [
          { kind: 'template', text: 'Summary:\n', tokens: 1 },
          { kind: 'binding:summary', text: 'Is there a deadline? The plan does not say.', tokens: 1 },
          { kind: 'template', text: '\nQuestion: how many days do I have to appeal\nAnswer briefly.', tokens: 1 },
        ],
      },
    }));
    expect(report.question).toBe('how many days do I have to appeal');
    expect(report.lossy).toBe(true);
  });

  it('does not flag a loss the consumer can recover because it also receives the source', () => {
    const report = inspectBoundary(boundary({
      received: {
        messages: [],
        segments: [
          { kind: 'binding:summary', text: seedSummary, tokens: 1 },
          { kind: 'binding:document', text: seedSource, tokens: 1 },
          { kind: 'binding:question', text: seedQuestion, tokens: 1 },
        ],
      },
    }));
    expect(report.sourcesAlsoReceived).toEqual(['document']);
    expect(report.lossy).toBe(false);
    expect(report.notes.join(' ')).toContain('also receives "document"');
  });

  it('reads what the consumer was asked from its instructions when there is no question', () => {
    const report = inspectBoundary(boundary({
      received: { messages: [], segments: [{ kind: 'template', text: 'State every deadline that applies.', tokens: 1 }, { kind: 'binding:summary', text: seedSummary, tokens: 1 }] },
    }));
    expect(report.question).toBeNull();
    expect(report.reasons).toEqual(['instructions ask for duration or date; 2 of 2 durations dropped']);
  });

  it('falls back to the last question-like user line when no segments were recorded', () => {
    const report = inspectBoundary(boundary({ received: { messages: [{ role: 'user', content: `${seedSummary}\n\n${seedQuestion}` }], segments: [] } }));
    expect(report.question).toBe(seedQuestion);
    expect(report.lossy).toBe(true);
  });
});

describe('an empty handoff', () => {
  const boundary = (intermediate: unknown): Boundary => ({
    id: 'data:select->quotes_check:selection', producer: 'select', consumer: 'quotes_check', binding: 'selection', intermediate,
    sources: [{ name: 'document', text: seedSource }], received: null, consumerOutput: null,
  });

  it('is lossy even when the consumer asks for nothing (an empty selection handed to a gate)', () => {
    const report = inspectBoundary(boundary({ relevant_sections: [], insufficient_evidence: true }));
    expect(report.asked).toEqual([]);
    expect(report.lossy).toBe(true);
    expect(report.reasons).toEqual([`the handoff is empty: none of the ${report.survival.facts.length} source facts reached quotes_check`]);
  });

  it('a selection with text is judged as before: a consumer that asks nothing is not lossy', () => {
    const report = inspectBoundary(boundary({ relevant_sections: [{ section_id: 'x', quote: 'File promptly.' }], insufficient_evidence: false }));
    expect(report.lossy).toBe(false);
  });
});
