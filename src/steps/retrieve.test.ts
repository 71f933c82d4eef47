import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { retrieveSections } from './retrieve-search.ts';
import { splitSections } from './sections.ts';

const statute = readFileSync(new URL('../../public/demo/documents/42-USC-1395ff.md', import.meta.url), 'utf8');

describe('sections', () => {
  it('gives statute paragraphs hierarchical ids', () => {
    const sections = splitSections(statute);
    const reconsideration = sections.find((s) => s.text.includes('180-day period beginning on the date the individual receives notice of the redetermination'));
    expect(reconsideration?.id).toBe('(b)(1)(D)(i)');
    expect(sections.map((s) => s.id)).toContain('(a)(3)(C)(i)');
    expect(new Set(sections.map((s) => s.id)).size).toBe(sections.length);
    // Sections tile the document: every character after the first heading belongs to one.
    for (const s of sections) expect(statute.slice(s.start, s.end).trimEnd()).toBe(s.text);
  });

  it('falls back to numbered headings, then paragraphs', () => {
    expect(splitSections('# 7.1 Scope\nA\n# 7.3 Appeals\nWithin 180 days.').map((s) => s.id)).toEqual(['7.1', '7.3']);
    expect(splitSections('First para.\n\nSecond para\ncontinues.').map((s) => s.id)).toEqual(['p1', 'p2']);
  });
});

describe('retrieveSections (BM25)', () => {
  it('selects the reconsideration deadline for the member question, deterministically', () => {
    const q = 'How many days do I have to request a reconsideration of a denied Medicare claim?';
    const first = retrieveSections(statute, q, 4);
    expect(first.sections.map((s) => s.section_id)).toContain('(b)(1)(D)(i)');
    expect(first.sections.map((s) => s.rank)).toEqual([1, 2, 3, 4]);
    expect(retrieveSections(statute, q, 4)).toEqual(first);
  });
});
