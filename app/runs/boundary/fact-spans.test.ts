import { describe, expect, it } from 'vitest';
import { factSurvival } from '../../../src/inspect/index.ts';
import { factPieces } from './fact-spans.ts';

describe('fact pieces', () => {
  it('slices a source into text and every occurrence of every fact, in order, losing no character', () => {
    const text = 'Request within the 180-day period. Expedited: 72-hour period. Again, the 180-day period applies.';
    const report = factSurvival([{ name: 'document', text }], { summary: 'Expedited decisions take 72 hours.' });
    const pieces = factPieces(text, report.facts);
    expect(pieces.map((p) => p.text).join('')).toBe(text);
    const facts = pieces.filter((p) => p.kind === 'fact');
    expect(facts.map((p) => [p.text, p.kind === 'fact' && p.fact.survived])).toEqual([
      ['180-day period', false], ['Expedited', true], ['72-hour period', true], ['180-day period', false],
    ]);
    // The second "180-day period" is in another sentence: a fact of its own place, its own first occurrence.
    expect(facts.map((p) => p.kind === 'fact' && p.first)).toEqual([true, true, true, true]);
    expect(factPieces('Within 30 days, 30 days.', factSurvival([{ name: 'd', text: 'Within 30 days, 30 days.' }], '').facts).filter((p) => p.kind === 'fact').map((p) => p.kind === 'fact' && p.first)).toEqual([true, false]);
  });

  it('skips occurrences that do not fit the text', () => {
    const [fact] = factSurvival([{ name: 'd', text: 'within 30 days' }], '').facts;
    expect(factPieces('short', fact ? [fact] : []).map((p) => p.text)).toEqual(['short']);
  });
});
