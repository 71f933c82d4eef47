/**
 * Abstention calibration: an abstention is scored neither right nor wrong, so a flag
 * that fires too readily is invisible in accuracy and costs people's time downstream. The
 * measurement is four multiplications, each shown: the fire rate; of the flagged items a person
 * reviewed (or whose dataset says whether they were answerable), the share that could have been
 * answered; that share × the fire rate = false abstentions of all traffic; × the monthly volume =
 * unnecessary escalations; × the handling minutes = hours a month.
 */
export interface AbstentionItem {
  itemId: string;
  abstained: boolean;
  /** What the dataset says (`expected.abstain`): true when abstaining is right. */
  expectedAbstain?: boolean;
  /** A reviewer's mark on a flagged item: could the pipeline have answered it? */
  reviewedAnswerable?: boolean;
}

export interface AbstentionCalibration {
  items: number;
  fired: number;
  fireRate: number;
  /** Flagged items with a verdict (a review, else the dataset's expected.abstain). */
  judged: number;
  /** Of those, the ones that could have been answered. */
  answerable: number;
  /** answerable ÷ judged, or null with nothing judged. */
  falseShare: number | null;
  /** falseShare × fireRate: unnecessary abstentions as a share of all traffic. */
  falseOfTraffic: number | null;
  /** Flagged items still waiting for a reviewer. */
  toReview: string[];
  /** Flagged items a reviewer marked (a mark can be changed), with the mark. */
  reviewed: { itemId: string; answerable: boolean }[];
  perMonth: { escalations: number; unnecessary: number; hours: number } | null;
  /** The multiplications, in order, as they are shown. */
  steps: string[];
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const whole = (n: number) => Math.round(n).toLocaleString('en-US');

/**
 * @example
 * const c = abstentionCalibration(items, { volume: 400_000, handlingMinutes: 4 });
 * console.log(c.steps.join('\n')); // … ≈ 480 hours a month
 */
export function abstentionCalibration(items: readonly AbstentionItem[], opts: { volume?: number; handlingMinutes?: number } = {}): AbstentionCalibration {
  const flagged = items.filter((i) => i.abstained);
  const verdict = (i: AbstentionItem) => (i.reviewedAnswerable !== undefined ? i.reviewedAnswerable : i.expectedAbstain !== undefined ? !i.expectedAbstain : undefined);
  const judged = flagged.filter((i) => verdict(i) !== undefined);
  const answerable = judged.filter((i) => verdict(i) === true).length;
  const fireRate = items.length ? flagged.length / items.length : 0;
  const falseShare = judged.length ? answerable / judged.length : null;
  const falseOfTraffic = falseShare === null ? null : falseShare * fireRate;
  const steps = [`fire rate: ${flagged.length} of ${items.length} items abstained or escalated = ${pct(fireRate)}`];
  if (falseShare === null) steps.push('false-abstention share: no flagged item has been reviewed yet');
  else {
    steps.push(`false-abstention share: ${answerable} of ${judged.length} flagged items reviewed could have been answered = ${pct(falseShare)}`);
    steps.push(`of all traffic: ${pct(falseShare)} × ${pct(fireRate)} = ${pct(falseOfTraffic ?? 0)}`);
  }
  let perMonth: AbstentionCalibration['perMonth'] = null;
  if (falseOfTraffic !== null && opts.volume !== undefined) {
    const minutes = opts.handlingMinutes ?? 4;
    const unnecessary = falseOfTraffic * opts.volume;
    const hours = (unnecessary * minutes) / 60;
    perMonth = { escalations: fireRate * opts.volume, unnecessary, hours };
    steps.push(`a month: ${pct(falseOfTraffic)} × ${whole(opts.volume)} questions = ${whole(unnecessary)} unnecessary escalations`);
    steps.push(`handling: ${whole(unnecessary)} × ${minutes} min = ${whole(hours)} hours a month`);
  }
  return {
    items: items.length, fired: flagged.length, fireRate, judged: judged.length, answerable, falseShare, falseOfTraffic,
    toReview: flagged.filter((i) => verdict(i) === undefined).map((i) => i.itemId),
    reviewed: flagged.flatMap((i) => (i.reviewedAnswerable === undefined ? [] : [{ itemId: i.itemId, answerable: i.reviewedAnswerable }])),
    perMonth, steps,
  };
}
