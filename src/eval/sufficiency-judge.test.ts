import { describe, expect, it } from 'vitest';
import { readJudgement } from './sufficiency-judge.ts';

const ok = (output: unknown) => ({ status: 'succeeded' as const, output });
const summary = 'A member may ask for reconsideration within 180 days; the decision is binding.';

describe('readJudgement', () => {
  it('reads derivable from a boolean field, a verdict word or a bare boolean, and checks the quote is in the intermediate', () => {
    expect(readJudgement(ok({ derivable: true, reason: 'It says "within 180 days".' }), summary)).toEqual({ verdict: 'derivable', reason: 'It says "within 180 days".', quote: { text: 'within 180 days', found: true } });
    expect(readJudgement(ok({ verdict: 'Not derivable', reason: 'No exception is stated.', quote: 'unless incapacitated' }), summary)).toMatchObject({ verdict: 'not-derivable', quote: { found: false } });
    expect(readJudgement(ok(false), summary)).toEqual({ verdict: 'not-derivable', reason: 'the judge gave no reason' });
    // Whitespace and case do not make a real quote look invented.
    expect(readJudgement(ok({ derivable: true, reason: 'x', quote: 'The  Decision is\nbinding' }), summary).quote?.found).toBe(true);
  });

  it('anything else is no verdict, said as such: never read as derivable', () => {
    expect(readJudgement(ok({ answer: 'yes' }), summary).verdict).toBeNull();
    expect(readJudgement(ok('derivable'), summary).verdict).toBeNull();
    expect(readJudgement({ status: 'failed', output: undefined, error: 'schema_violation' }, summary)).toEqual({ verdict: null, reason: 'the judge run failed: schema_violation' });
  });
});
