import { describe, expect, it } from 'vitest';
import type { Boundary } from '../trace/replay.ts';
import { inspectBoundary } from './boundary.ts';
import { askedFacts, questionForm, stem } from './relevance.ts';
import { factSurvival } from './survival.ts';

// A short handbook in the shape of the issue's: numbered clauses, one figure each.
const handbook = [
  '# Dental plan handbook',
  '',
  '## 1. Eligibility',
  '1.1 An employee is eligible after 90 days of service.',
  '',
  '## 2. Benefits',
  '2.1 The plan pays 50% of the cost of major services.',
  '2.2 The plan pays at most $1,500 in benefits for each member in a calendar year (the annual maximum).',
  '',
  '## 3. Appeals',
  '3.1 A member may appeal a denied claim within 180 calendar days of the denial notice.',
  '3.2 An urgent appeal is decided within 48 hours of its receipt.',
  '3.3 A standard appeal is decided within 30 days of its receipt.',
  '',
  '## 4. Refunds',
  '4.1 Premiums paid in advance are refunded within 90 calendar days of cancellation.',
].join('\n');
const sources = [{ name: 'document', text: handbook }];
const top = (question: string) => askedFacts(question, factSurvival(sources, ''), sources)[0]?.fact.text;

function boundary(question: string, intermediate: string): Boundary {
  return {
    id: 'data:summarise->answer:summary', producer: 'summarise', consumer: 'answer', binding: 'summary', intermediate, sources,
    received: { messages: [], segments: [{ kind: 'binding:summary', text: intermediate, tokens: 1 }, { kind: 'binding:question', text: question, tokens: 1 }] },
    consumerOutput: undefined,
  };
}

describe('what a question asks', () => {
  it.each([
    ['How fast is an urgent appeal decided?', '48 hours'],
    ['How soon must I appeal a denied claim?', '180 calendar days'],
    ['What is the most the plan pays for me in a year?', '$1,500'],
    ['Is there a limit on what the plan pays each year?', '$1,500'],
    ['What share of major services does the plan pay?', '50%'],
    ['When are premiums paid in advance refunded?', '90 calendar days'],
    ['How long until a new employee is eligible?', '90 days'],
  ])('%j is about "%s"', (question, fact) => {
    expect(top(question)).toBe(fact);
  });

  it('reads the kind of answer from the question\'s form, not from its topic', () => {
    expect(questionForm('How fast is an urgent appeal decided?').wants).toEqual(['duration', 'date']);
    expect(questionForm('What is the most the plan pays?').wants).toEqual(expect.arrayContaining(['money', 'number', 'percentage', 'duration']));
    expect(questionForm('Which section covers appeals?').wants).toContain('section');
    // A yes/no question is decided by a statement: it asks for a condition, not a figure.
    expect(questionForm('Does the plan cover urgent care?').wants).toEqual(['condition']);
    expect(questionForm('When must the notice be mailed?').wants).toEqual(['date', 'duration']);
    // A "when" inside the sentence is a condition, not what is asked.
    expect(questionForm('What certificate can be offered when a flight was cancelled?').wants).toEqual([]);
  });

  it('a named term the question already uses is not its answer: the dropped 48 hours is, not "urgent"', () => {
    const report = inspectBoundary(boundary('How fast is an urgent appeal decided?', 'Urgent appeals are handled quickly. Members may appeal a denied claim.'));
    expect(report.lossy).toBe(true);
    expect(report.askedFacts.map((a) => a.fact.text)).not.toContain('urgent');
    expect(report.reasons[0]).toMatch(/^question asks for "48 hours" \(duration, 3\.2, line 12; score [\d.]+ \(best\); matched .*urgent.*: dropped$/);
  });

  it('flags the dropped annual maximum, and explains it', () => {
    const report = inspectBoundary(boundary('What is the most the plan pays for me in a year?', 'The plan covers major services. Appeals within 180 calendar days.'));
    expect(report.lossy).toBe(true);
    const asked = report.askedFacts[0];
    expect(asked?.fact.text).toBe('$1,500');
    expect(asked?.status).toBe('dropped');
    expect(asked?.matched).toEqual(expect.arrayContaining(['pay', 'year']));
    expect(asked?.why).toMatch(/^score [\d.]+ \(best\); matched .*; a money, as "What is the most" asks$/);
  });

  it('reports an approximation as one: "two months" for a 60-day deadline is lossy and says what it became', () => {
    const source = [{ name: 'document', text: '## Appeals\n\nA member may appeal within 60 days of the denial.' }];
    const report = inspectBoundary({ ...boundary('How long do I have to appeal?', 'You can appeal within two months of the denial.'), sources: source });
    expect(report.lossy).toBe(true);
    expect(report.askedFacts[0]).toMatchObject({ status: 'approximated' });
    expect(report.reasons[0]).toContain('only approximated, as "two months"');
  });

  it('tells value plus place apart: the refund deadline is not kept by the eligibility period of the same length', () => {
    const report = inspectBoundary(boundary('When are premiums paid in advance refunded?', 'Employees become eligible after 90 days of service.'));
    expect(report.lossy).toBe(true);
    expect(report.askedFacts[0]?.fact.line).toBe(16);
  });

  it('is not lossy when the answer survived, restated', () => {
    const report = inspectBoundary(boundary('How fast is an urgent appeal decided?', 'Urgent appeals are decided within two days.'));
    expect(report.lossy).toBe(false);
  });

  it('stems so that the forms of a word meet', () => {
    expect(stem('redeterminations')).toBe(stem('redetermination'));
    expect(stem('concluded')).toBe(stem('conclude'));
    expect(stem('cancelled')).toBe(stem('cancel'));
    expect(stem('liability')).toBe(stem('liable'));
  });
});
