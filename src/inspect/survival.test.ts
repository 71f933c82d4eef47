import { describe, expect, it } from 'vitest';
import { seedQuotes, seedSource, seedSummary } from '../testing/seed-example.ts';
import { factSurvival } from './survival.ts';

const survival = (source: string, intermediate: unknown) => factSurvival([{ name: 'document', text: source }], intermediate);
const dropped = (source: string, intermediate: unknown) => survival(source, intermediate).dropped.map((f) => f.text);

describe('factSurvival', () => {
  it('gives each report its own facts when the same source is checked again (the source’s part is remembered)', () => {
    const source = [{ name: 'doc', text: 'Appeals: file within 180 calendar days. Refunds: within 180 calendar days of the charge.' }];
    const first = factSurvival(source, 'File within 180 days.');
    const second = factSurvival(source, 'Nothing about time.');
    expect(second.facts.every((f) => !f.survived)).toBe(true);
    // The second report changed nothing of the first: statuses, occurrences and places are its own.
    expect(first.facts.some((f) => f.survived)).toBe(true);
    first.facts[0]?.occurrences.push({ start: 0, end: 1, line: 9 });
    expect(factSurvival(source, 'x').facts[0]?.occurrences).toHaveLength(second.facts[0]?.occurrences.length ?? -1);
    expect(factSurvival(source, 'File within 180 days.').facts.map((f) => [f.normalized, f.status])).toEqual(first.facts.map((f) => [f.normalized, f.status]));
  });

  it('marks both deadlines dropped by a summary that says "promptly"', () => {
    const report = survival(seedSource, seedSummary);
    expect(report.dropped.filter((f) => f.kind === 'duration').map((f) => [f.text, f.line])).toEqual([['180 calendar days', 1], ['72 hours', 2]]);
    expect(report.byKind.duration).toEqual({ total: 2, dropped: 2 });
    // The summary did keep the named conditions, in its own words.
    expect(report.survived.map((f) => f.normalized)).toEqual(expect.arrayContaining(['expedited', 'urgent']));
  });

  it('finds every quoted fact in an intermediate that quotes the source verbatim', () => {
    const report = survival(seedSource, seedQuotes);
    expect(report.byKind.duration).toEqual({ total: 2, dropped: 0 });
    // What the quotes left out is reported too: they never mention the adverse benefit determination.
    expect(report.dropped.map((f) => f.text)).toEqual(['adverse benefit determination']);
  });

  it.each([
    ['the 180-day period', 'Members have 180 calendar days.'],
    ['within 180 calendar days', 'a 180-day window'],
    ['within 72 hours', 'within 3 days'],
    ['not to exceed 14 days', 'two weeks at most'],
    ['a fee of $1,500', 'a fee of 1500 dollars'],
    ['a fee of $1,500', '$1500.00'],
    ['5 percent', 'five percent'],
    ['25%', '25.0 %'],
    ['effective January 1, 2006', 'from 2006-01-01'],
    ['§ 1395ff', 'section 1395ff'],
    ['section 1395w–22', 'see 1395w-22'],
    ['order #W2378156', 'order W2378156'],
    ['the “local coverage determination” means', 'Local coverage determination rules'],
  ])('does not drop %j restated as %j', (source, intermediate) => {
    expect(dropped(source, intermediate)).toEqual([]);
  });

  it('counts numbers in a JSON intermediate, unit or not', () => {
    expect(dropped(seedSource, { appeal_window_days: 180, expedited_hours: 72, conditions: ['expedited', 'urgent', 'adverse benefit determination'] })).toEqual([]);
    expect(dropped('The deductible is $1,500.', { deductible_usd: '1,500' })).toEqual([]);
  });

  it('reads JSON string leaves as text, so an escaped newline does not hide a word, and no fact spans two leaves', () => {
    expect(dropped('Expedited review applies.', { notes: 'Standard review.\nExpedited review applies.' })).toEqual([]);
    // Glued, "within 3" + "days" would read as 3 days = 72 hours; kept apart, nothing restates 72 hours.
    expect(dropped('Decide within 72 hours.', { parts: ['Decide within 3', 'days are allowed for the file'] })).toEqual(['72 hours']);
    expect(dropped('The fee is $1,500.', ['1,500'])).toEqual([]);
  });

  it('does not count a different fact with the same figure as a survival', () => {
    expect(dropped('Appeal within 180 days.', 'The fee is $180.')).toEqual(['180 days']);
    expect(dropped('Appeal within 30 days.', 'Appeal within 30 business days.')).toEqual(['30 days']);
    expect(dropped('See §7.3.', { section_id: '17.3' })).toEqual(['§7.3']);
    expect(dropped('See §7.3.', { section_id: '7.3' })).toEqual([]);
  });

  it('a figure is its value at its place: three sentences are three facts, a repeat within one sentence is one', () => {
    const text = 'within the 60-day period.\nbefore the end of such 60-day period.\nwithin 60 days of the date, that is 60 days.';
    const report = survival(text, 'No figures here.');
    expect(report.facts.map((f) => f.occurrences.map((o) => o.line))).toEqual([[1], [2], [3, 3]]);
    expect(report.byKind.duration).toEqual({ total: 3, dropped: 3 });
  });

  it('the same value at two places survives only where the intermediate\'s words put it (#13)', () => {
    const handbook = '1.1 An employee becomes eligible after 90 days of continuous service.\n1.2 Work 30 hours a week.\n1.3 Dependants may enrol.\n2.1 Premiums are deducted monthly.\n2.2 A premium paid for no coverage is refunded within 90 calendar days of the request.';
    const kept = survival(handbook, 'Employees are eligible after 90 days of service.');
    expect(kept.facts.filter((f) => f.kind === 'duration').map((f) => [f.section, f.survived])).toEqual([['1.1', true], ['2.2', false]]);
    expect(survival(handbook, 'Refunds are paid within 90 days of a request.').facts.filter((f) => f.kind === 'duration').map((f) => f.survived)).toEqual([false, true]);
    // A figure with no words around it could be either place: both are given the benefit of the doubt.
    expect(survival(handbook, { days: 90 }).facts.filter((f) => f.kind === 'duration').map((f) => f.survived)).toEqual([true, true]);
    expect(survival(handbook, { refund_days: 90 }).facts.filter((f) => f.kind === 'duration').map((f) => f.survived)).toEqual([false, true]);
  });

  it('keeps facts of different sources apart', () => {
    const report = factSurvival([{ name: 'policy', text: 'within 30 days' }, { name: 'letter', text: 'within 30 days' }], 'promptly');
    expect(report.dropped.map((f) => f.source)).toEqual(['policy', 'letter']);
  });
});

describe('survival on a benefits handbook (#13)', () => {
  it('"30 hours a week" is a rate, not a duration; "half" keeps 50 %', () => {
    const source = [{ name: 'handbook', text: 'An employee must work at least 30 hours a week. Major services are covered at 50% after the deductible.' }];
    const report = factSurvival(source, 'Major services are covered at half the cost.');
    expect(report.facts.filter((f) => f.kind === 'duration')).toEqual([]);
    expect(report.facts.find((f) => f.kind === 'percentage')).toMatchObject({ normalized: '50%', survived: true });
    expect(factSurvival(source, 'Major services are covered at a quarter of the cost.').facts.find((f) => f.kind === 'percentage')?.survived).toBe(false);
  });
});
