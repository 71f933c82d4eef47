/**
 * Error-compounding arithmetic (seed 002): a chain is right only when every step is right.
 * A gate that catches a share of a step's errors, followed by a retry that usually succeeds,
 * shrinks what slips through: slip = e·(1−c) + e·c·(1−r).
 */
export interface StepRate {
  stepId: string;
  /** Probability the step's output is wrong. */
  errorRate: number;
  /** Share of those errors a gate (or the schema check) catches; 0 when nothing checks it. */
  catchRate: number;
  /** Probability a retry after a caught error succeeds. */
  retrySuccess: number;
}

export interface CompoundingEstimate {
  perStep: { stepId: string; slip: number; success: number; formula: string }[];
  ungated: number;
  gated: number;
  /** The arithmetic, written out the way the article does. */
  explanation: string;
}

const fmt = (n: number, digits = 3) => Number(n.toFixed(digits)).toString();

export function estimateCompounding(rates: readonly StepRate[]): CompoundingEstimate {
  const perStep = rates.map((r) => {
    const slip = r.errorRate * (1 - r.catchRate) + r.errorRate * r.catchRate * (1 - r.retrySuccess);
    return {
      stepId: r.stepId, slip, success: 1 - slip,
      formula: `${fmt(r.errorRate)} × ${fmt(1 - r.catchRate)} + ${fmt(r.errorRate)} × ${fmt(r.catchRate)} × ${fmt(1 - r.retrySuccess)} = ${fmt(slip, 4)}`,
    };
  });
  const ungated = rates.reduce((p, r) => p * (1 - r.errorRate), 1);
  const gated = perStep.reduce((p, s) => p * s.success, 1);
  const same = (xs: number[]) => xs.every((x) => x === xs[0]);
  const ungatedText = same(rates.map((r) => r.errorRate)) && rates.length > 0
    ? `${fmt(1 - (rates[0]?.errorRate ?? 0))}^${rates.length} = ${fmt(ungated)}`
    : `${rates.map((r) => fmt(1 - r.errorRate)).join(' × ')} = ${fmt(ungated)}`;
  const gatedText = same(perStep.map((s) => s.success)) && perStep.length > 0
    ? `${fmt(perStep[0]?.success ?? 1)}^${perStep.length} = ${fmt(gated)}`
    : `${perStep.map((s) => fmt(s.success)).join(' × ')} = ${fmt(gated)}`;
  return { perStep, ungated, gated, explanation: `unchecked: ${ungatedText}; with gates and one retry: ${gatedText}` };
}
