import { describe, expect, it } from 'vitest';
import { precision, recall, scoreSet, total } from './score.ts';

// A quality assertion, not a timing: the analysis meets the targets on the labelled set's
// quantity questions (#10). The condition questions' targets (#29) are printed by bench:survival.
// Nothing here or in src/inspect special-cases the set's strings.
describe('the boundary analysis on the labelled survival set', () => {
  const { documents } = scoreSet(undefined, 'quantity');
  const all = total(documents);

  it('finds lossy handoffs: overall recall ≥ 0.95 and precision ≥ 0.90', () => {
    expect(recall(all.verdict)).toBeGreaterThanOrEqual(0.95);
    expect(precision(all.verdict)).toBeGreaterThanOrEqual(0.9);
  });

  it.each(documents.map((d) => [d.name, d] as const))('%s: lossy recall and precision ≥ 0.85', (_name, d) => {
    expect(recall(d.verdict)).toBeGreaterThanOrEqual(0.85);
    expect(precision(d.verdict)).toBeGreaterThanOrEqual(0.85);
  });

  it('raises at most 5% false alarms on faithful intermediates', () => {
    expect(all.faithful.falseAlarms / all.faithful.total).toBeLessThanOrEqual(0.05);
  });
});
