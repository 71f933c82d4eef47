import { describe, expect, it } from 'vitest';
import { runChain } from '../engine/run.ts';
import { twoStepChain } from '../testing/chain-fixtures.ts';
import { createScriptedProvider } from '../testing/scripted-provider.ts';
import { seedQuestion, seedQuotes, seedSource, seedSummary } from '../testing/seed-example.ts';
import { setBoundaryLabel } from '../trace/labels.ts';
import { createMemoryRunRepository } from '../trace/repository.ts';
import { inspectRun, runSufficiency } from './boundary.ts';
import { goldFactsMissing, goldFactSurvives, goldSufficiency, summarizeSufficiency, type BoundarySufficiency } from './sufficiency.ts';
import { directInputs } from './consumer-prompt.ts';
import type { Chain } from '../chain/schema.ts';

async function seedRun(facts: string[]) {
  const repo = createMemoryRunRepository();
  const provider = createScriptedProvider([{ facts }, { answer: 'You should file promptly.' }]);
  const meta = await runChain({
    chain: twoStepChain(), inputs: { document: seedSource, question: seedQuestion }, provider,
    model: { name: 'm', maxOutputTokens: 100, structuredOutput: true }, repo, countTokens: (t) => t.length,
  });
  return { meta, events: await repo.getEvents(meta.id) };
}

const seamOf = (inspection: ReturnType<typeof inspectRun>) => {
  const at = inspection.boundaries.findIndex((b) => b.producer === 'extract' && b.consumer === 'answer');
  if (at < 0) throw new Error('no extract → answer boundary');
  return inspection.sufficiency[at] as BoundarySufficiency;
};

describe('goldFactSurvives', () => {
  it('judges a recognised fact on meaning, and any other fact as text', () => {
    expect(goldFactSurvives('180 calendar days', 'File within 180 calendar days of the notice.')).toBe(true);
    expect(goldFactSurvives('180 calendar days', { deadline: 'within 180 calendar days' })).toBe(true);
    expect(goldFactSurvives('180 calendar days', 'File within 72 hours.')).toBe(false);
    expect(goldFactSurvives('Qualified Independent Contractor', ['the  qualified independent contractor decides'])).toBe(true);
    expect(goldFactSurvives('Qualified Independent Contractor', 'an outside reviewer decides')).toBe(false);
  });
});

describe('goldFactsMissing', () => {
  it('judges each fact as goldFactSurvives does, in order, indexing the intermediate once', () => {
    const facts = ['180 calendar days', '72 hours', 'Qualified Independent Contractor', '$1,500', 'the ALJ'];
    const text = 'File within 180 calendar days; a qualified independent contractor reviews claims over $1,500.';
    expect(goldFactsMissing(facts, text)).toEqual(facts.filter((f) => !goldFactSurvives(f, text)));
    expect(goldFactsMissing(facts, text)).toEqual(['72 hours', 'the ALJ']);
    expect(goldFactsMissing([], text)).toEqual([]);
  });
});

describe('runSufficiency (the batch path)', () => {
  it('gives the estimates inspectRun gives, with gold facts and without', async () => {
    const { meta, events } = await seedRun(['Reconsideration may be requested within 180 calendar days.']);
    for (const gold of [undefined, ['180 calendar days', '72 hours'], { extract: ['180 calendar days'] }]) {
      const opts = gold ? { gold } : {};
      expect(runSufficiency(meta, events, opts)).toEqual(inspectRun(meta, events, opts).sufficiency);
    }
  });
});

describe('sufficiency in inspectRun', () => {
  it('estimates from the asked facts: a summary that dropped every deadline is insufficient', async () => {
    const { meta, events } = await seedRun(seedSummary.split('. '));
    const seam = seamOf(inspectRun(meta, events));
    expect(seam.estimate).toMatchObject({ verdict: 'insufficient', basis: 'asked' });
    expect(seam.estimate.reason).toMatch(/question asks for "180 calendar days".*dropped/);
    expect(seam.label).toBeNull();
  });

  it('estimates from the asked facts: quotes that keep the deadlines are sufficient', async () => {
    const { meta, events } = await seedRun(seedQuotes.relevant_sections.map((s) => s.quote));
    expect(seamOf(inspectRun(meta, events)).estimate).toMatchObject({ verdict: 'sufficient', basis: 'asked' });
  });

  it('prefers gold facts when they are given, and names the missing ones', async () => {
    const kept = ['Reconsideration may be requested within 180 calendar days.'];
    const { meta, events } = await seedRun(kept);
    // The asked-kind rule sees one deadline kept and calls it sufficient …
    expect(seamOf(inspectRun(meta, events)).estimate.verdict).toBe('sufficient');
    // … gold facts say the answer also needed the 72 hours.
    const gold = seamOf(inspectRun(meta, events, { gold: ['180 calendar days', '72 hours'] }));
    expect(gold.estimate).toMatchObject({ verdict: 'insufficient', basis: 'gold', missing: ['72 hours'] });
    // Gold per producer step applies to that step's boundaries only.
    const byStep = inspectRun(meta, events, { gold: { extract: ['180 calendar days'] } });
    expect(seamOf(byStep).estimate).toMatchObject({ verdict: 'sufficient', basis: 'gold' });
    expect(byStep.sufficiency.filter((s) => s.producer !== 'extract').every((s) => s.estimate.basis !== 'gold')).toBe(true);
  });

  it('reports the human label beside the estimate, and their agreement', async () => {
    const { meta, events } = await seedRun(seedSummary.split('. '));
    const seam = seamOf(inspectRun(meta, events));
    const labelled = setBoundaryLabel(meta, { boundaryId: seam.boundaryId, producer: seam.producer, consumer: seam.consumer, verdict: 'not-derivable', note: ' says "promptly" ', at: 5 });
    if (!labelled.ok) throw new Error(labelled.message);
    const inspection = inspectRun({ ...meta, labels: labelled.labels }, events);
    expect(seamOf(inspection).label).toMatchObject({ verdict: 'not-derivable', note: 'says "promptly"' });
    expect(inspection.sufficiencySummary).toMatchObject({ compared: 1, agree: 1, labelled: { derivable: 0, notDerivable: 1, unsure: 0, rate: 0 } });
  });
});

describe('summarizeSufficiency', () => {
  const item = (estimate: 'sufficient' | 'insufficient' | 'unknown', label: 'derivable' | 'not-derivable' | 'unsure' | null): BoundarySufficiency => ({
    boundaryId: `${estimate}-${label}`, producer: 'p', consumer: 'c',
    estimate: { verdict: estimate, basis: estimate === 'unknown' ? 'none' : 'asked', missing: [], reason: '' },
    label: label ? { boundaryId: `${estimate}-${label}`, producer: 'p', consumer: 'c', verdict: label, note: '', at: 0 } : null,
  });

  it('counts rates over decided verdicts only, as seed 000 reports them', () => {
    const summary = summarizeSufficiency([
      item('sufficient', 'derivable'), item('sufficient', 'not-derivable'), item('insufficient', 'not-derivable'),
      item('sufficient', 'unsure'), item('unknown', 'derivable'), item('insufficient', null),
    ]);
    expect(summary.estimated).toEqual({ sufficient: 3, insufficient: 2, unknown: 1, rate: 3 / 5 });
    expect(summary.labelled).toEqual({ derivable: 2, notDerivable: 2, unsure: 1, rate: 0.5 });
    expect(summary).toMatchObject({ boundaries: 6, compared: 3, agree: 2 });
  });

  it('has no rate when nothing was decided', () => {
    expect(summarizeSufficiency([item('unknown', 'unsure')])).toMatchObject({ estimated: { rate: null }, labelled: { rate: null } });
  });
});

describe('facts the consumer is given itself', () => {
  const chain: Chain = {
    format: 'seamscope.chain', version: 1, id: 'rewrite-retrieve', name: 'Rewrite then retrieve',
    inputs: [
      { name: 'document', schema: { type: 'string' }, trust: 'trusted', required: true },
      { name: 'question', schema: { type: 'string' }, trust: 'untrusted', required: true },
    ],
    steps: [
      {
        id: 'rewrite', kind: 'model', name: 'Rewrite', position: { x: 0, y: 0 },
        config: { bindings: { question: 'inputs.question' }, prompt: 'Rewrite as a search query: {question}', outputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'], additionalProperties: false } },
      },
      { id: 'retrieve', kind: 'retrieve', name: 'Retrieve', position: { x: 280, y: 0 }, config: { bindings: { document: 'inputs.document', query: 'steps.rewrite.query' }, topK: 1 } },
      {
        id: 'answer', kind: 'model', name: 'Answer', position: { x: 560, y: 0 },
        config: { bindings: { chunks: 'steps.retrieve', question: 'inputs.question' }, prompt: 'Chunks: {chunks}\nQuestion: {question}', outputSchema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false } },
      },
      // A gate reads the document only to check against it: it is no material for what it passes on.
      { id: 'check', kind: 'gate', name: 'Check', position: { x: 840, y: 0 }, config: { bindings: { value: 'steps.answer', source: 'inputs.document' }, check: { type: 'jsonSchema', schema: { type: 'object' } }, onFail: 'abort' } },
      { id: 'final', kind: 'output', name: 'Final', position: { x: 1120, y: 0 }, config: { bindings: { value: 'steps.check.answer' } } },
    ],
  };

  async function run() {
    const repo = createMemoryRunRepository();
    const provider = createScriptedProvider([{ query: 'reconsideration request' }, { answer: 'Ask for reconsideration soon.' }]);
    const meta = await runChain({ chain, inputs: { document: seedSource, question: seedQuestion }, provider, model: { name: 'm', maxOutputTokens: 100, structuredOutput: true }, repo, countTokens: (t) => t.length });
    expect(meta.status).toBe('succeeded');
    return { meta, events: await repo.getEvents(meta.id) };
  }

  it('a query\'s boundary into a retrieve step that reads the document cannot lose the document\'s facts; a gate\'s reference document does not count', async () => {
    const { meta, events } = await run();
    const gold = ['180 calendar days'];
    const byId = new Map(inspectRun(meta, events, { gold }).sufficiency.map((s) => [`${s.producer}->${s.consumer}`, s.estimate]));
    expect(byId.get('rewrite->retrieve')).toMatchObject({ verdict: 'sufficient', basis: 'gold', missing: [] });
    expect(byId.get('rewrite->retrieve')?.reason).toMatch(/within retrieve's reach: 1 not in the handoff but in "document", which it is given itself/);
    // The answer lacks the fact; the gate after it holds the document, but only to check.
    expect(byId.get('answer->check')).toMatchObject({ verdict: 'insufficient', missing: ['180 calendar days'] });
    expect(runSufficiency(meta, events, { gold })).toEqual(inspectRun(meta, events, { gold }).sufficiency);
  });

  it('a model consumer counts an input only as far as its prompt carried it whole', () => {
    const boundary = (segments: { kind: string; text: string }[]) => ({
      id: 'b', producer: 'p', consumer: 'answer', binding: 'facts', intermediate: { facts: [] }, sources: [], consumerOutput: null,
      consumerInputs: [{ name: 'document', text: seedSource }],
      received: { messages: [], segments: segments as never },
    });
    expect(directInputs(boundary([{ kind: 'binding:document', text: seedSource }]))).toEqual([{ name: 'document', text: seedSource }]);
    // Its budget cut the document: what was cut did not reach it.
    expect(directInputs(boundary([{ kind: 'binding:document', text: seedSource.slice(0, 40) }]))).toEqual([]);
    expect(goldSufficiency({ facts: [] }, 'answer', ['180 calendar days'], [{ name: 'document', text: seedSource }]).verdict).toBe('sufficient');
    expect(goldSufficiency({ facts: [] }, 'answer', ['180 calendar days'], []).verdict).toBe('insufficient');
  });
});
