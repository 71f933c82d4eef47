import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { extractFacts, type Fact, type FactKind } from './facts.ts';

/** The project's copy of a corpus file; the shared corpus only as a fallback on a dev machine. */
function corpusFile(projectPath: string, sharedPath: string): string {
  const local = fileURLToPath(new URL(`../../${projectPath}`, import.meta.url));
  return readFileSync(existsSync(local) ? local : sharedPath, 'utf8');
}
const statute = corpusFile('public/demo/documents/42-USC-1395ff.md', '/work/shared/corpus/documents/health-plan/42-USC-1395ff-medicare-determinations-and-appeals.md');
const deadlines = JSON.parse(corpusFile('src/testing/corpus/42-USC-1395ff-deadline-quotes.json', '/work/shared/corpus/documents/health-plan/42-USC-1395ff-deadline-quotes.json')) as {
  quotes: { line: number; quote: string; amount: string }[];
};

const brief = (facts: Fact[]) => facts.map((f) => [f.kind, f.text, f.normalized]);
const only = (text: string, kind: FactKind) => extractFacts(text).filter((f) => f.kind === kind);

describe('extractFacts', () => {
  it.each([
    ['not later than the 60-day period beginning', 'duration', '60-day period', '60 day'],
    ['the end of the 72-hour period beginning', 'duration', '72-hour period', '72 hour'],
    ['within 180 calendar days of receiving', 'duration', '180 calendar days', '180 day'],
    ['must be filed within 72 hours.', 'duration', '72 hours', '72 hour'],
    ['for an initial term of three years', 'duration', 'three years', '3 year'],
    ['within thirty (30) days of notice', 'duration', 'thirty (30) days', '30 day'],
    ['refunded in 10 business days', 'duration', '10 business days', '10 business day'],
    ['on the 30th day after filing', 'duration', '30th day', '30 day'],
    ['a fee of $1,500.', 'money', '$1,500', '$1500'],
    ['up to $2.5 million in damages', 'money', '$2.5 million', '$2500000'],
    ['1,500 dollars in total', 'money', '1,500 dollars', '$1500'],
    ['increased by 5 percent each year', 'percentage', '5 percent', '5%'],
    ['a 25% coinsurance', 'percentage', '25%', '25%'],
    ['effective January 1, 2006, the plan', 'date', 'January 1, 2006', '2006-01-01'],
    ['signed 30 December 2016 in Basel', 'date', '30 December 2016', '2016-12-30'],
    ['filed on 2024-02-15.', 'date', '2024-02-15', '2024-02-15'],
    ['for requests made in a year after 2004, the', 'date', '2004', '2004'],
    ['under section 1395w–22 of this title', 'section', 'section 1395w–22', '1395w-22'],
    ['see § 1395ff for appeals', 'section', '§ 1395ff', '1395ff'],
    ['as described in §7.3 of the policy', 'section', '§7.3', '7.3'],
    ['under subsection (b)(1)(D)(i), the', 'section', '(b)(1)(D)(i)', '(b)(1)(D)(i)'],
    ['your order #W2378156 arrived', 'id', '#W2378156', 'W2378156'],
    ['ticket ORD-1234 is open', 'id', 'ORD-1234', 'ORD-1234'],
    ['user mia_li_3668 asked', 'id', 'mia_li_3668', 'mia_li_3668'],
    ['Expedited appeals are available', 'condition', 'Expedited', 'expedited'],
    ['for urgent care claims', 'condition', 'urgent care', 'urgent'],
    ['unless there is good cause which precluded', 'condition', 'good cause', 'good cause'],
    ['not fewer than 4 such contractors', 'number', '4', '4'],
    ['a dose of 500mg daily', 'number', '500mg', '500 mg'],
  ])('finds %j', (text, kind, span, normalized) => {
    expect(brief(only(text, kind as FactKind))).toContainEqual([kind, span, normalized]);
  });

  it('splits a range into two facts and a section list into one fact per reference', () => {
    expect(brief(extractFacts('refunded in 5 to 7 business days'))).toEqual([
      ['duration', '5', '5 business day'], ['duration', '7 business days', '7 business day'],
    ]);
    expect(only('Sections 406(a), 1302, and 1395hh of this title', 'section').map((f) => f.normalized)).toEqual(['406(a)', '1302', '1395hh']);
    expect(only('a breach of Section 2.1  [MEDICAL PRODUCTS], 2.2  [MEDICAL PRODUCTS] or 2.3', 'section').map((f) => f.normalized)).toEqual(['2.1', '2.2', '2.3']);
    expect(only('1.1  Definitions\n3.10  Territory Expansion', 'section').map((f) => f.normalized)).toEqual(['1.1', '3.10']);
  });

  it('does not take list markers, structural labels or parts of tokens for numbers', () => {
    const text = '(1) In general\n1. First\nunder paragraph (2) of title 42, item 3, and subparagraph (A).\nForm 10-K; chunk-7874; 1395ff; Page 2 of 49; at 2:30\n' +
      '   7   \nsee resources?subHdrTab=0&dir=x\nshall include\u202f 1 a detailed explanation';
    expect(only(text, 'number')).toEqual([]);
  });

  it('reports verbatim, non-overlapping spans', () => {
    const facts = extractFacts(statute);
    let lastEnd = -1;
    for (const f of facts) {
      expect(statute.slice(f.start, f.end)).toBe(f.text);
      expect(f.start).toBeGreaterThanOrEqual(lastEnd);
      lastEnd = f.end;
    }
  });

  it('extracts every deadline of 42 U.S.C. 1395ff as a duration', () => {
    const durations = only(statute, 'duration');
    expect(deadlines.quotes.length).toBeGreaterThanOrEqual(20);
    const lineStarts = [0, ...[...statute.matchAll(/\n/g)].map((m) => m.index + 1)];
    for (const { line, quote, amount } of deadlines.quotes) {
      const start = statute.indexOf(quote, lineStarts[line - 1]);
      expect(start, `quote on line ${line}`).toBeGreaterThanOrEqual(0);
      const inQuote = durations.filter((d) => d.start >= start && d.end <= start + quote.length);
      expect(inQuote.map((d) => d.normalized), `line ${line}: ${quote.slice(0, 60)}`).toContain(amount);
    }
  });

  it('stays precise on the statute: its only bare numbers are the two counts it states', () => {
    const body = statute.slice(statute.indexOf('-->'));
    // "an entity of up to three reviewers", "not fewer than 4 such contractors".
    expect(only(body, 'number').map((f) => f.text)).toEqual(['three', '4']);
    expect(only(body, 'money').map((f) => f.normalized)).toEqual(['$100', '$1000', '$10', '$10']);
  });

  it('reads limits on counts, spelled numbers confirmed by digits, and quoted values', () => {
    const facts = (t: string) => extractFacts(t).map((f) => `${f.kind}:${f.normalized}`);
    expect(facts('Each reservation can have at most five passengers and no more than 3 bags.')).toEqual(['number:5', 'number:3']);
    expect(facts('subject to the retention of one (1) complete copy')).toEqual(['number:1']);
    expect(facts("a reason, either 'no longer needed' or 'ordered by mistake'; the user's order")).toEqual(['condition:no longer needed', 'condition:ordered by mistake']);
    // A limit on a length of time stays a duration.
    expect(facts('up to 14 days')).toEqual(['duration:14 day']);
  });
});
