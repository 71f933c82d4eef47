import { describe, expect, it } from 'vitest';
import { abstentionCalibration, type AbstentionItem } from './abstention.ts';

describe('abstentionCalibration', () => {
  it("reproduces seed 000's arithmetic: 6.2 % fire rate, 142 of 200 reviewed truly unanswerable, 400,000 a month at 4 minutes ≈ 480 hours", () => {
    // 10,000 questions, 620 flagged; a reviewer read 200 of the flagged and marked 58 answerable.
    const items: AbstentionItem[] = Array.from({ length: 10_000 }, (_, i) => ({
      itemId: `q${i}`, abstained: i < 620, ...(i < 200 ? { reviewedAnswerable: i < 58 } : {}),
    }));
    const c = abstentionCalibration(items, { volume: 400_000, handlingMinutes: 4 });
    expect(c.fireRate).toBeCloseTo(0.062, 10);
    expect(c.falseShare).toBeCloseTo(0.29, 10);
    expect(c.falseOfTraffic).toBeCloseTo(0.01798, 5);
    expect(Math.round(c.perMonth?.unnecessary ?? 0)).toBe(7192);
    expect(Math.round(c.perMonth?.hours ?? 0)).toBe(479);
    expect(c.toReview).toHaveLength(420);
    expect(c.steps).toEqual([
      'fire rate: 620 of 10000 items abstained or escalated = 6.2%',
      'false-abstention share: 58 of 200 flagged items reviewed could have been answered = 29.0%',
      'of all traffic: 29.0% × 6.2% = 1.8%',
      'a month: 1.8% × 400,000 questions = 7,192 unnecessary escalations',
      'handling: 7,192 × 4 min = 479 hours a month',
    ]);
  });

  it('takes the dataset’s expected.abstain where no reviewer has looked, and a review over it', () => {
    const c = abstentionCalibration([
      { itemId: 'a', abstained: true, expectedAbstain: true },
      { itemId: 'b', abstained: true, expectedAbstain: false },
      { itemId: 'c', abstained: true, expectedAbstain: false, reviewedAnswerable: false },
      { itemId: 'd', abstained: true },
      { itemId: 'e', abstained: false },
    ]);
    expect(c).toMatchObject({ fired: 4, judged: 3, answerable: 1, toReview: ['d'], perMonth: null });
    // The reviewer's marks are listed so they can be changed; the dataset's verdicts are not marks.
    expect(c.reviewed).toEqual([{ itemId: 'c', answerable: false }]);
    expect(abstentionCalibration([{ itemId: 'x', abstained: true }]).steps[1]).toBe('false-abstention share: no flagged item has been reviewed yet');
  });
});
