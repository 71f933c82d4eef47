import { describe, expect, it } from 'vitest';
import { judgeAgreement, type LabelPair } from './judge-agreement.ts';

const pairs = (spec: [LabelPair['judge'], LabelPair['person'], number][]): LabelPair[] => spec.flatMap(([judge, person, count]) => Array.from({ length: count }, () => ({ judge, person })));

describe('judgeAgreement', () => {
  it('gives the confusion table, observed agreement and Cohen\'s kappa (the textbook 50-item example: 0.4)', () => {
    const a = judgeAgreement(pairs([['derivable', 'derivable', 20], ['derivable', 'not-derivable', 5], ['not-derivable', 'derivable', 10], ['not-derivable', 'not-derivable', 15]]));
    expect(a.table).toEqual({ derivable: { derivable: 20, notDerivable: 5 }, notDerivable: { derivable: 10, notDerivable: 15 } });
    expect(a.n).toBe(50);
    expect(a.observed).toBeCloseTo(0.7);
    expect(a.kappa).toBeCloseTo(0.4);
    expect(a.trusted).toBe(false);
    expect(a.why).toContain('kappa 0.40, below 0.6');
  });

  it('trusts a judge only with enough labels and agreement beyond chance; unsure labels count for neither side', () => {
    const agreeing = pairs([['derivable', 'derivable', 6], ['not-derivable', 'not-derivable', 5], ['derivable', 'unsure', 3]]);
    const a = judgeAgreement(agreeing);
    expect([a.n, a.unsure, a.kappa, a.trusted]).toEqual([11, 3, 1, true]);
    expect(a.why).toContain('its labels count');
    const few = judgeAgreement(agreeing.slice(0, 4));
    expect(few.trusted).toBe(false);
    expect(few.why).toContain('at least 10 are needed');
  });

  it('a judge that says derivable to everything, against a person who does too, cannot be measured and is not trusted', () => {
    const a = judgeAgreement(pairs([['derivable', 'derivable', 12]]));
    expect(a.observed).toBe(1);
    expect(a.kappa).toBeNull();
    expect(a.trusted).toBe(false);
    expect(judgeAgreement([])).toMatchObject({ n: 0, observed: null, kappa: null, trusted: false });
  });

  it('a judge that always disagrees has negative kappa', () => {
    const a = judgeAgreement(pairs([['derivable', 'not-derivable', 6], ['not-derivable', 'derivable', 6]]));
    expect(a.kappa).toBeCloseTo(-1);
    expect(a.why).toContain('disagrees with you');
  });
});
