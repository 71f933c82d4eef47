import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { heaviestIncreasing, splitSections } from './sections.ts';

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

  it('a numbering jump (part 3 left out) keeps every clause after it', () => {
    const doc = [
      '## 1. Scope', '1.1 This policy covers members.', '1.2 It starts on 1 January.',
      '## 2. Claims', '2.1 File a claim within 90 days.', '2.2 Claims are paid in 30 days.',
      '## 4. Appeals', '4.1 A member may appeal within 180 calendar days.', '4.2 The plan answers within 60 days.',
      '## 5. Ending', '5.1 Either party may end this policy on notice.',
    ].join('\n');
    const sections = splitSections(doc);
    expect(sections.map((s) => s.id)).toEqual(['1.1', '1.2', '2.1', '2.2', '4.1', '4.2', '5.1']);
    expect(sections.find((s) => s.id === '4.1')?.text).toBe('4.1 A member may appeal within 180 calendar days.');
  });

  it('a table of contents before the body: the body\'s clauses are the sections, each once', () => {
    const toc = ['TABLE OF CONTENTS', '1.1  Definitions   3', '1.2  Currency   4', '2.1  Term   4', '2.2  Renewal   5', '3.1  Fees   5', ''];
    const body = [
      'Article 1 Interpretation', '1.1 Definitions', '', '"Affiliate" means an entity that controls at least fifty percent (50%) of a party.', '',
      '1.2 Currency', '', 'All sums are in US dollars.', '',
      '2.1 Term', '', 'This Agreement runs for five (5) years from the Effective Date.', '',
      '2.2 Renewal', '', 'It renews for one (1) year unless a party gives notice.', '',
      '3.1 Fees', '', 'Customer pays the fees in Exhibit B within thirty (30) days of invoice.',
    ];
    const doc = [...toc, ...body].join('\n');
    const sections = splitSections(doc);
    expect(sections.map((s) => s.id)).toEqual(['1.1', '1.2', '2.1', '2.2', '3.1']);
    expect(sections[0]?.start).toBe(doc.indexOf('1.1 Definitions'));
    expect(sections.find((s) => s.id === '2.1')?.text).toContain('five (5) years');
    expect(sections.find((s) => s.id === '3.1')?.text).toContain('thirty (30) days');
  });

  it('a cross-reference that starts a wrapped line is not a clause', () => {
    const doc = [
      '1.1 The Supplier delivers the goods named in', '3.2 below, at the place the Customer names.',
      '1.2 The Customer inspects them on arrival.', '2.1 Title passes on delivery.', '2.2 Risk passes with title.',
      '3.1 Either party may end this agreement.', '3.2 Notice is given in writing.',
    ].join('\n');
    const sections = splitSections(doc);
    expect(sections.map((s) => s.id)).toEqual(['1.1', '1.2', '2.1', '2.2', '3.1', '3.2']);
    expect(sections[0]?.text).toContain('3.2 below, at the place');
  });

  it('the Paratek contract (CUAD): its table of contents falls out and no id repeats', () => {
    const paratek = readFileSync(new URL('../testing/survival-set/documents/cuad-paratek-carbogen.txt', import.meta.url), 'utf8');
    const sections = splitSections(paratek);
    expect(sections.filter((s) => s.id.includes('#'))).toEqual([]);
    expect(sections[0]?.id).toBe('1.1');
    // The body's 1.1, after the contents list, not the list's own entry.
    expect(sections[0]?.text).toMatch(/^1\.1 Definitions\s+In this Agreement/);
    expect(Math.max(...sections.map((s) => s.text.length))).toBeLessThan(15_000);
    expect(sections.find((s) => s.id === '19.2')?.text).toContain('fifteen (15) days');
  });
});

describe('against an index made without this parser', () => {
  it('the Neoforma contract: the same 202 clauses, in order, each starting at its line', () => {
    const text = readFileSync(new URL('../testing/survival-set/documents/cuad-neoforma-verticalnet.txt', import.meta.url), 'utf8');
    const index = JSON.parse(readFileSync(new URL('../testing/documents/cuad-neoforma-verticalnet.clauses.json', import.meta.url), 'utf8')) as { clauses: { id: string; offset: number }[] };
    const sections = splitSections(text);
    expect(sections.map((s) => s.id)).toEqual(index.clauses.map((c) => c.id));
    // The index points at the number; a section starts at its line, indentation included.
    index.clauses.forEach((c, i) => {
      const start = sections[i]?.start ?? Number.NaN;
      expect(start, c.id).toBeLessThanOrEqual(c.offset);
      expect(text.slice(start, c.offset).trim(), c.id).toBe('');
    });
  });
});

describe('statutes pasted as plain text', () => {
  const markdown = readFileSync(new URL('../../public/demo/documents/42-USC-1395ff.md', import.meta.url), 'utf8');

  it('42 USC 1395ff without its Markdown headings: the same nested ids as with them', () => {
    const plain = markdown.replace(/^#{1,6} /gm, '');
    expect(plain).not.toMatch(/^#/m);
    const ids = splitSections(plain).map((s) => s.id);
    expect(ids).toEqual(splitSections(markdown).map((s) => s.id));
    expect(ids).toContain('(b)(1)(F)(i)');
    expect(ids.filter((id) => id.includes('#'))).toEqual([]);
  });

  it('(i) after (h) is a subsection; (i) before (ii), or after a clause (i), is a clause', () => {
    const doc = [
      '(g) Notices', '(1) A notice is in writing.', '(A) It names the claim.', '(i) the date of service;', '(ii) the amount;', '(B) It is sent by mail.',
      '(h) Review', '(1) A member may ask for review.', '(A) within 60 days; or', '(B) later for good cause.',
      '(i) Definitions', '(1) Plan means the health plan.',
      '(j) Effective date', '(1) This section applies from 2027.',
    ].join('\n').replace(/^/, '(a) Scope\n(1) This section covers members.\n');
    const ids = splitSections(doc).map((s) => s.id);
    expect(ids).toEqual(['(a)', '(a)(1)', '(g)', '(g)(1)', '(g)(1)(A)', '(g)(1)(A)(i)', '(g)(1)(A)(ii)', '(g)(1)(B)', '(h)', '(h)(1)', '(h)(1)(A)', '(h)(1)(B)', '(i)', '(i)(1)', '(j)', '(j)(1)']);
  });

  it('a contract\'s (i), (ii) list is not a statute; a letter\'s (a), (b), (c) stays a list', () => {
    expect(splitSections('Terms:\n(i) Price is fixed.\n(ii) Delivery is free.\n(iii) Returns in 30 days.').map((s) => s.id)).toEqual(['(i)', '(ii)', '(iii)']);
    expect(splitSections('(a) First rule applies.\n(b) Second rule applies.\n(c) Third rule applies.').map((s) => s.id)).toEqual(['(a)', '(b)', '(c)']);
  });
});

describe('heaviestIncreasing', () => {
  it('the strictly increasing run with the most weight, ties to the later run', () => {
    expect(heaviestIncreasing([[1], [2], [3], [1], [2], [3]], [1, 1, 1, 5, 5, 5])).toEqual([3, 4, 5]);
    expect(heaviestIncreasing([[1], [2], [3], [1], [2], [3]], [1, 1, 1, 1, 1, 1])).toEqual([3, 4, 5]);
    expect(heaviestIncreasing([[4, 1], [4], [4, 10], [4, 2], [5]], [1, 1, 1, 1, 1])).toEqual([1, 3, 4]);
    expect(heaviestIncreasing([], [])).toEqual([]);
  });

  it('matches a quadratic search on random inputs', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let round = 0; round < 200; round++) {
      const n = 1 + Math.floor(random() * 30);
      const numbers = Array.from({ length: n }, () => Array.from({ length: 1 + Math.floor(random() * 2) }, () => Math.floor(random() * 5)));
      const weights = Array.from({ length: n }, () => Math.floor(random() * 10));
      const less = (a: number[], b: number[]) => {
        for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return (a[i] as number) < (b[i] as number);
        return a.length < b.length;
      };
      const best = numbers.map((_, i) => weights[i] as number);
      for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) if (less(numbers[j] as number[], numbers[i] as number[])) best[i] = Math.max(best[i] as number, (best[j] as number) + (weights[i] as number));
      const chain = heaviestIncreasing(numbers, weights);
      expect(chain.reduce((sum, i) => sum + (weights[i] as number), 0)).toBe(Math.max(...best));
      chain.slice(1).forEach((i, k) => expect(less(numbers[chain[k] as number] as number[], numbers[i] as number[])).toBe(true));
    }
  });
});
