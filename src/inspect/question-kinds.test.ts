import { describe, expect, it } from 'vitest';
import { askedKinds } from './question-kinds.ts';

describe('askedKinds', () => {
  it.each([
    ['How many days do I have to appeal a denied claim?', ['duration']],
    ['How long does the plan have to decide?', ['duration']],
    ['What is the deadline for an expedited appeal?', ['duration', 'date', 'condition']],
    ['When must the notice be mailed?', ['duration', 'date']],
    ['By what date is the report due?', ['date']],
    ['How much is the filing fee?', ['money']],
    ['What does the visit cost?', ['money']],
    ['What percentage of claims are approved?', ['percentage']],
    ['What percent of the premium is covered?', ['money', 'percentage']],
    ['How many contractors must the Secretary use?', ['number']],
    ['Which section governs reconsiderations? Cite it.', ['section']],
    ['What is the order id for my keyboard?', ['id']],
    ['Under what circumstances can I skip the redetermination?', ['condition']],
    ['Summarise the document.', []],
    ['When the document is silent, say so.', []],
  ])('%j asks for %j', (question, kinds) => {
    expect(askedKinds(question)).toEqual(kinds);
  });

  it('reads instructions as well as questions', () => {
    expect(askedKinds('Preserve every number, deadline, dollar amount and named condition verbatim.')).toEqual(['duration', 'money', 'date']);
  });
});
