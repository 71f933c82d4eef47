import { describe, expect, it } from 'vitest';
import { twoStepChain } from '../../src/testing/index.ts';
import { acceptSuggestion, filterSuggestions, openPlaceholder, templateSuggestions } from './template-suggest.ts';

describe('template suggestions', () => {
  const chain = twoStepChain();
  const answer = chain.steps[1]!;
  const all = templateSuggestions(chain, answer, answer.config.bindings as Record<string, string>);

  it('offers bindings, the upstream schema fields they read, and unbound inputs and steps (adding the binding)', () => {
    expect(all.find((s) => s.name === 'facts')?.detail).toBe('steps.extract.facts · array');
    expect(all.find((s) => s.name === 'question')?.addBinding).toBeUndefined();
    expect(all.find((s) => s.name === 'document')).toMatchObject({ addBinding: { name: 'document', ref: 'inputs.document' } });
    expect(all.find((s) => s.name === 'extract.facts')).toMatchObject({ addBinding: { name: 'extract', ref: 'steps.extract' } });
    // Downstream steps would make a cycle.
    expect(all.some((s) => s.name.startsWith('final'))).toBe(false);
    const extract = chain.steps[0]!;
    const fromExtract = templateSuggestions(chain, extract, extract.config.bindings as Record<string, string>);
    expect(fromExtract.map((s) => s.name)).toEqual(['document', 'question']);
  });

  it('filters by what was typed and completes the placeholder at the caret', () => {
    expect(filterSuggestions(all, 'fa').map((s) => s.name)).toEqual(['facts', 'extract.facts']);
    expect(filterSuggestions(all, 'que').map((s) => s.name)).toEqual(['question']);
    const text = 'Facts: {fa and more';
    const open = openPlaceholder(text, 10)!;
    expect(open).toEqual({ start: 7, query: 'fa' });
    expect(acceptSuggestion(text, 10, open.start, 'facts')).toEqual({ text: 'Facts: {facts} and more', caret: 14 });
    expect(acceptSuggestion('x {q} y', 4, 2, 'question')).toEqual({ text: 'x {question} y', caret: 12 });
    expect(openPlaceholder('done {facts} ', 13)).toBeNull();
  });
});
