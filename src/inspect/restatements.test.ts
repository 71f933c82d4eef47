import { describe, expect, it } from 'vitest';
import { factSurvival } from './survival.ts';

/** The status of the one fact of `source` that reads `text`, after `intermediate`. */
function statusOf(source: string, text: string, intermediate: unknown) {
  const fact = factSurvival([{ name: 'document', text: source }], intermediate).facts.find((f) => f.text === text);
  if (!fact) throw new Error(`no fact "${text}" in the source`);
  return { status: fact.status, survived: fact.survived, restatedAs: fact.restatedAs };
}

describe('survival by meaning', () => {
  it.each([
    ['Urgent appeals are decided within 48 hours.', '48 hours', 'Urgent appeals: decided in two days.'],
    ['The plan pays 50% of the cost.', '50%', 'The plan pays half of the cost.'],
    ['The annual maximum is $1,500.', '$1,500', 'Annual maximum: $1.5k.'],
    ['Appeal within sixty days of the notice.', 'sixty days', 'Appeal within 60 days of the notice.'],
    ['Appeal within 60 days of the notice.', '60 days', 'Appeal within sixty days of the notice.'],
    ['Decided within 72 hours.', '72 hours', 'Decided within three days.'],
    ['The limit is $1,000,000.', '$1,000,000', 'The limit is $1 million.'],
    ['Each reservation can have at most five passengers.', 'five', 'Up to 5 passengers per reservation.'],
    ['The store has 50 types of products.', '50 types', 'The store sells fifty product types.'],
  ])('%j: "%s" survives as %j', (source, text, intermediate) => {
    expect(statusOf(source, text, intermediate)).toEqual({ status: 'survived', survived: true, restatedAs: undefined });
  });

  it.each([
    ['Appeal within 60 days of the notice.', '60 days', 'Appeal within two months of the notice.', 'two months'],
    ['A decision within the 90-day period.', '90-day period', 'A decision within about three months.', 'about three months'],
    ['Request it within the 120-day period.', '120-day period', 'Request it within about four months.', 'about four months'],
    ['Refunds in 7 business days.', '7 business days', 'Refunds in about a week.', 'about a week'],
    ['Signed on January 9, 2017.', 'January 9, 2017', 'Signed in January 2017.', 'January 2017'],
  ])('%j: "%s" is only approximated by %j', (source, text, intermediate, restatedAs) => {
    expect(statusOf(source, text, intermediate)).toEqual({ status: 'approximated', survived: false, restatedAs });
  });

  it('a qualifier matters: 60 calendar days are not 60 business days', () => {
    expect(statusOf('Appeal within 60 calendar days.', '60 calendar days', 'Appeal within 60 business days.')).toEqual({ status: 'changed', survived: false, restatedAs: '60 business days' });
    expect(statusOf('Refunded in 5 to 7 business days.', '7 business days', 'Refunded in 5 to 7 days.')).toMatchObject({ status: 'changed', survived: false });
    // "calendar" adds nothing: 60 calendar days are 60 days.
    expect(statusOf('Appeal within 60 calendar days.', '60 calendar days', 'Appeal within 60 days.').status).toBe('survived');
  });

  it('a unit mismatch is a change, not a survival', () => {
    expect(statusOf('Appeal within 30 days.', '30 days', 'Appeal within 30 months.')).toEqual({ status: 'changed', survived: false, restatedAs: '30 months' });
    expect(statusOf('The fee is 50%.', '50%', 'The fee is $50.').survived).toBe(false);
  });

  it('a figure nothing restates is dropped', () => {
    expect(statusOf('Appeal within 60 days.', '60 days', 'Appeal promptly.')).toEqual({ status: 'dropped', survived: false, restatedAs: undefined });
  });

  it('a spelled "one" stands for a 1 only where its words match', () => {
    const source = 'A party may keep one (1) complete copy for archival purposes.\n\nLate fees are 1 percent.';
    expect(statusOf(source, 'one (1)', 'Each party may keep one complete copy for its archives.').status).toBe('survived');
    expect(statusOf(source, 'one (1)', 'The parties meet at one o\'clock.').status).toBe('dropped');
  });
});
