import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { conditionsNeeded, describeCondition } from './condition-needs.ts';

const handbook = readFileSync(new URL('../../public/demo/documents/dental-plan-handbook.md', import.meta.url), 'utf8');
const statute = readFileSync(new URL('../testing/survival-set/documents/42-USC-1395ff.md', import.meta.url), 'utf8');
const doc = (text: string) => [{ name: 'document', text }];

describe('conditionsNeeded', () => {
  it('finds the definition a "when does it count as" question turns on', () => {
    const needed = conditionsNeeded(doc(handbook), ['When does an appeal count as urgent?']);
    // Its exact span and type are the clause rules' to choose; that it is 4.3's clause is not.
    expect(needed).toContainEqual(expect.objectContaining({ text: expect.stringContaining('seriously harm the member'), section: '4.3', source: 'document', question: 'When does an appeal count as urgent?' }));
    // A named term alone ("urgent") is what the question already says, not what it needs.
    expect(needed.map((c) => c.text)).not.toContain('urgent');
  });

  it('finds the negation a yes/no question turns on', () => {
    const needed = conditionsNeeded(doc(handbook), ['Do I have to pay the deductible before my cleaning is covered?']);
    expect(needed).toEqual([expect.objectContaining({ text: expect.stringContaining('no deductible'), section: '3.1' })]);
  });

  it('needs nothing for a question about a figure only', () => {
    expect(conditionsNeeded(doc(handbook), ['How many days do I have to appeal a denied claim?'])).toEqual([]);
  });

  it('holds on a statute: the prohibition a question about representation turns on', () => {
    const needed = conditionsNeeded(doc(statute), ['If my supplier represents me in the appeal, can it charge me for the representation?']);
    expect(needed.map((c) => c.text)).toContainEqual(expect.stringContaining('may not impose any financial liability'));
    expect(needed.every((c) => c.section.startsWith('('))).toBe(true);
  });

  it('lists each clause once, in source order, across questions; empty sources need nothing', () => {
    const needed = conditionsNeeded(doc(handbook), ['When does an appeal count as urgent?', 'Do I have to pay the deductible before my cleaning is covered?', 'When does an appeal count as urgent?']);
    expect(needed.map((c) => c.section)).toEqual([...needed.map((c) => c.section)].sort());
    expect(new Set(needed.map((c) => `${c.section}|${c.text}`)).size).toBe(needed.length);
    expect(needed.map((c) => c.section)).toEqual(expect.arrayContaining(['3.1', '4.3']));
    expect(conditionsNeeded(doc('  '), ['When does an appeal count as urgent?'])).toEqual([]);
  });

  it('describes a condition by its place and kind, in plain words', () => {
    expect(describeCondition({ text: 'no deductible', section: '3.1', line: 17, type: 'negation' })).toBe('“no deductible” (section 3.1, a "no" or "not")');
    expect(describeCondition({ text: 'unless agreed', section: '', line: 4, type: 'exception' })).toBe('“unless agreed” (line 4, an exception)');
  });
});
