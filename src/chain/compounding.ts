/**
 * Error-compounding arithmetic: a chain is right only when every step is right.
 * A gate that catches a share of a step's errors, followed by a retry that usually succeeds,
 * shrinks what slips through: slip = e·(1−c) + e·c·(1−r). Errors no check can see (a handoff
 * that drops the facts the next step needs, yet is well-formed) slip whatever the gates:
 * success = (1 − slip)·(1 − u).
 */
export interface StepRate {
  stepId: string;
  /** Probability the step's output is wrong. */
  errorRate: number;
  /** Share of those errors a gate (or the schema check) catches; 0 when nothing checks it. */
  catchRate: number;
  /** Probability a retry after a caught error succeeds. */
  retrySuccess: number;
  /** Probability of an error no gate or schema sees (measured: the step's handoffs found lossy); 0 when absent. */
  uncaughtRate?: number;
}

export interface CompoundingEstimate {
  perStep: { stepId: string; slip: number; success: number; formula: string }[];
  ungated: number;
  gated: number;
  /** The arithmetic, written out step by step, so a person can redo it. */
  explanation: string;
}

const fmt = (n: number, digits = 3) => Number(n.toFixed(digits)).toString();

export function estimateCompounding(rates: readonly StepRate[]): CompoundingEstimate {
  const perStep = rates.map((r) => {
    const checked = r.errorRate * (1 - r.catchRate) + r.errorRate * r.catchRate * (1 - r.retrySuccess);
    const u = r.uncaughtRate ?? 0;
    const slip = 1 - (1 - checked) * (1 - u);
    const base = `${fmt(r.errorRate)} × ${fmt(1 - r.catchRate)} + ${fmt(r.errorRate)} × ${fmt(r.catchRate)} × ${fmt(1 - r.retrySuccess)}`;
    return {
      stepId: r.stepId, slip, success: 1 - slip,
      formula: u > 0 ? `1 − (1 − (${base})) × (1 − ${fmt(u)} uncaught) = ${fmt(slip, 4)}` : `${base} = ${fmt(slip, 4)}`,
    };
  });
  // Unchecked, a step is right when it has neither kind of error.
  const right = rates.map((r) => (1 - r.errorRate) * (1 - (r.uncaughtRate ?? 0)));
  const ungated = right.reduce((p, x) => p * x, 1);
  const gated = perStep.reduce((p, s) => p * s.success, 1);
  const same = (xs: number[]) => xs.every((x) => x === xs[0]);
  const ungatedText = same(right) && rates.length > 0
    ? `${fmt(right[0] ?? 1)}^${rates.length} = ${fmt(ungated)}`
    : `${right.map((x) => fmt(x)).join(' × ')} = ${fmt(ungated)}`;
  const gatedText = same(perStep.map((s) => s.success)) && perStep.length > 0
    ? `${fmt(perStep[0]?.success ?? 1)}^${perStep.length} = ${fmt(gated)}`
    : `${perStep.map((s) => fmt(s.success)).join(' × ')} = ${fmt(gated)}`;
  const uncaught = rates.filter((r) => (r.uncaughtRate ?? 0) > 0).map((r) => `${r.stepId} ${fmt(r.uncaughtRate ?? 0)}`);
  const uncaughtText = uncaught.length ? `; uncaught by any check (lossy handoffs): ${uncaught.join(', ')}` : '';
  return { perStep, ungated, gated, explanation: `unchecked: ${ungatedText}; with gates and one retry: ${gatedText}${uncaughtText}` };
}
