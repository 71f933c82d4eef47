import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { splitSections } from './sections.ts';

const handbook = readFileSync(new URL('../../public/demo/documents/dental-plan-handbook.md', import.meta.url), 'utf8');

describe('numbered clauses are clauses', () => {
  it('a handbook of "4.1 A member may appeal …" lines: one section per clause, its text the clause, cut at the next heading', () => {
    const sections = splitSections(handbook);
    expect(sections.map((s) => s.id)).toEqual([
      '1.1', '1.2', '1.3', '2.1', '2.2', '2.3', '3.1', '3.2', '3.3', '3.4', '3.5', '3.6', '4.1', '4.2', '4.3', '4.4', '5.1', '5.2', '5.3', '6.1', '6.2', '7.1', '7.2',
    ]);
    const appeal = sections.find((s) => s.id === '4.1');
    expect(appeal?.text).toBe('4.1 A member may appeal a denied claim by writing to the plan within 180 days of the denial notice.');
    // The last clause of a part does not carry the next part's heading.
    expect(sections.find((s) => s.id === '3.6')?.text).not.toContain('## 4. Appeals');
    expect(handbook.slice(appeal?.start, appeal?.end).trimEnd()).toBe(appeal?.text);
  });

  it('reads § 4.1, Section 4.1 and 4.1. the same way', () => {
    for (const prefix of ['§ ', 'Section ', '']) {
      for (const dot of ['', '.']) {
        const doc = ['1.1', '1.2', '2.1', '2.2'].map((n) => `${prefix}${n}${dot} The member must do thing ${n} within 30 days.`).join('\n');
        const sections = splitSections(doc);
        expect(sections.map((s) => s.id), `${prefix}…${dot}`).toEqual(['1.1', '1.2', '2.1', '2.2']);
        expect(sections[2]?.text).toContain('thing 2.1 within 30 days');
      }
    }
  });

  it('lettered and numbered items without headings: (a), (1) and 1) are sections with their text', () => {
    expect(splitSections('(a) First rule applies.\n(b) Second rule applies.\n(c) Third rule applies.').map((s) => [s.id, s.text])).toEqual([
      ['(a)', '(a) First rule applies.'], ['(b)', '(b) Second rule applies.'], ['(c)', '(c) Third rule applies.'],
    ]);
    expect(splitSections('1) Pay the fee.\n2) File the form.\n3) Wait 10 days.').map((s) => s.id)).toEqual(['1)', '2)', '3)']);
  });

  it('prose with a stray number or two is still paragraphs', () => {
    expect(splitSections('We met on 4.1 of the plan.\n\nThen 2 people left.').map((s) => s.id)).toEqual(['p1', 'p2']);
  });
});
