import type { SufficiencyVerdict } from '../trace/events.ts';

/** A judge's label of one boundary beside the person's, when the person labelled it. */
export interface LabelPair {
  judge: 'derivable' | 'not-derivable';
  person: SufficiencyVerdict;
}

/** Counts by the judge's label (rows) and the person's (columns). */
export interface ConfusionTable {
  derivable: { derivable: number; notDerivable: number };
  notDerivable: { derivable: number; notDerivable: number };
}

export interface JudgeAgreement {
  /** Boundaries both labelled derivable or not derivable (the person's "unsure" left out). */
  n: number;
  /** Boundaries the person marked unsure: not counted either way. */
  unsure: number;
  table: ConfusionTable;
  /** Share of the n where the judge and the person agree; null with n = 0. */
  observed: number | null;
  /** Cohen's kappa (agreement beyond chance); null when it is undefined (n = 0, or both always said the same one label). */
  kappa: number | null;
  /** Whether the judge's labels may count: enough labelled boundaries and kappa at or above the bar. */
  trusted: boolean;
  /** Why, in words: the figures and the bar they were held to. */
  why: string;
}

/** What a judge must reach before its labels count. Kappa 0.6 is the usual floor of "substantial" agreement. */
export const JUDGE_TRUST = { minN: 10, minKappa: 0.6 } as const;

/**
 * How far a sufficiency judge agrees with the person's labels, and whether that is enough for its
 * labels to count. Until it is, a judge's verdict is shown as a judge's opinion, never as the
 * boundary's verdict: a judge nobody checked is one more unearned "ok".
 *
 * @example
 * judgeAgreement([{ judge: 'derivable', person: 'derivable' }, { judge: 'not-derivable', person: 'derivable' }]);
 * // { n: 2, observed: 0.5, kappa: 0, trusted: false, why: '2 labelled boundaries; at least 10 are needed before the judge counts', … }
 */
export function judgeAgreement(pairs: readonly LabelPair[], bar: { minN: number; minKappa: number } = JUDGE_TRUST): JudgeAgreement {
  const table: ConfusionTable = { derivable: { derivable: 0, notDerivable: 0 }, notDerivable: { derivable: 0, notDerivable: 0 } };
  let unsure = 0;
  for (const p of pairs) {
    if (p.person === 'unsure') {
      unsure++;
      continue;
    }
    const row = p.judge === 'derivable' ? table.derivable : table.notDerivable;
    if (p.person === 'derivable') row.derivable++;
    else row.notDerivable++;
  }
  const n = table.derivable.derivable + table.derivable.notDerivable + table.notDerivable.derivable + table.notDerivable.notDerivable;
  const observed = n ? (table.derivable.derivable + table.notDerivable.notDerivable) / n : null;
  let kappa: number | null = null;
  if (n && observed !== null) {
    const judgeYes = (table.derivable.derivable + table.derivable.notDerivable) / n;
    const personYes = (table.derivable.derivable + table.notDerivable.derivable) / n;
    const chance = judgeYes * personYes + (1 - judgeYes) * (1 - personYes);
    kappa = chance < 1 ? (observed - chance) / (1 - chance) : null;
  }
  const trusted = n >= bar.minN && kappa !== null && kappa >= bar.minKappa;
  const figures = `${n} labelled boundar${n === 1 ? 'y' : 'ies'}${kappa === null ? '' : `, kappa ${kappa.toFixed(2)}`}`;
  const why = trusted
    ? `${figures}: at or above the bar (n ≥ ${bar.minN}, kappa ≥ ${bar.minKappa}), so its labels count`
    : n < bar.minN
      ? `${figures}; at least ${bar.minN} are needed before the judge counts`
      : kappa === null
        ? `${figures}; agreement beyond chance cannot be measured while every label is the same, so the judge does not count yet`
        : `${figures}, below ${bar.minKappa}: the judge disagrees with you too often to count`;
  return { n, unsure, table, observed, kappa, trusted, why };
}
