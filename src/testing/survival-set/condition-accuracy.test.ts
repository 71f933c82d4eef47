import { describe, expect, it } from 'vitest';
import { inspectBoundary } from '../../inspect/boundary.ts';
import { boundaryFor, precision, recall, scoreSet, total } from './score.ts';
import { loadSurvivalSet } from './set.ts';

// Quality assertions, not timings: the real boundary check run over the labelled set's condition
// questions (issue 29) and its quantity questions, scored as bench:survival scores them.
// Nothing here or in src/inspect special-cases the set's strings.
//
// Issue 29's targets are condition lossy recall ≥ 0.9 and false alarms on faithful intermediates
// ≤ 5 % over both kinds. Both hold (recall 0.91 = 125/137, false alarms 6/132 when this was
// written; the survival set's README has the figures): the floors hold what the rules reach, so a
// change that loses ground fails.
describe('condition questions on the labelled survival set (#29)', () => {
  const docs = loadSurvivalSet();
  const conditions = scoreSet(docs, 'condition').documents;
  const quantities = scoreSet(docs, 'quantity').documents;
  const c = total(conditions);
  const q = total(quantities);
  const faithful = { total: c.faithful.total + q.faithful.total, falseAlarms: c.faithful.falseAlarms + q.faithful.falseAlarms };

  // "0.96" is bench:survival's rounding of 115/120 (0.958), the figure before issue 29: no worse than that.
  it('keeps the quantity figures: lossy recall ≥ 0.96 (115 of 120), precision ≥ 0.99, false alarms ≤ 1.5 %', () => {
    expect(recall(q.verdict)).toBeGreaterThanOrEqual(115 / 120);
    expect(precision(q.verdict)).toBeGreaterThanOrEqual(0.99);
    expect(q.faithful.falseAlarms / q.faithful.total).toBeLessThanOrEqual(0.015);
  });

  it('flags lossy condition handoffs: recall ≥ 0.90 (issue 29\'s target; 125 of 137 reached) and precision ≥ 0.95', () => {
    expect(recall(c.verdict)).toBeGreaterThanOrEqual(0.9);
    expect(c.verdict.tp).toBeGreaterThanOrEqual(125);
    expect(precision(c.verdict)).toBeGreaterThanOrEqual(0.95);
  });

  it('flags at least 52 of the 59 numbers-only intermediates (every number kept, the condition dropped)', () => {
    expect(c.byKind['numbers-only'].lossy).toBeGreaterThanOrEqual(52);
  });

  it('raises false alarms on at most 5 % of the 132 faithful intermediates of both kinds (issue 29\'s target)', () => {
    expect(faithful.total).toBe(132);
    expect(faithful.falseAlarms / faithful.total).toBeLessThanOrEqual(0.05);
  });

  it('holds on the held-out contract it was not tuned on: lossy recall ≥ 0.74 (20 of 27), precision ≥ 0.90', () => {
    const held = conditions.find((d) => d.heldOut);
    expect(held?.name).toBe('cuad-neoforma-verticalnet.txt');
    expect(recall(held!.verdict)).toBeGreaterThanOrEqual(20 / 27);
    expect(precision(held!.verdict)).toBeGreaterThanOrEqual(0.9);
  });

  it('says which words matched for every condition it judged kept or changed, and why each asked fact was asked', () => {
    const doc = docs.find((d) => d.questions.some((x) => x.kind === 'condition'))!;
    const question = doc.questions.find((x) => x.kind === 'condition')!;
    for (const im of question.intermediates) {
      const report = inspectBoundary(boundaryFor(doc, question.question, im.text));
      for (const f of report.survival.facts.filter((x) => x.kind === 'condition' && x.unit !== undefined && x.status !== 'dropped')) {
        expect(f.matchedWords?.length, f.text).toBeGreaterThan(0);
      }
      for (const a of report.askedFacts) expect(a.why).toMatch(/^score [\d.]+.*; matched /);
    }
  });
});
