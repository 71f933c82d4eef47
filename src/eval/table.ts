import { estimateCompounding, type CompoundingEstimate, type StepRate } from '../chain/compounding.ts';
import { parseStep } from '../chain/parsed-step.ts';
import { percentile } from '../inspect/metrics.ts';
import { stepRegistry } from '../steps/index.ts';
import { abstentionCalibration, type AbstentionCalibration } from './abstention.ts';
import { resultKey, type EvalVariant, type ItemResult } from './run-eval.ts';
import { seamQuestions, type SeamQuestions } from './seam-questions.ts';

/**
 * The comparison table: one row per variant (accuracy with its noise, abstention, latency,
 * tokens, calls, spend a month with the multiplication shown) and per-step rates. Choosing between designs
 * whose accuracies differ by less than their noise is a coin toss, so the noise column matters as
 * much as the accuracy one, so ties are called, and how they are decided is written next to them.
 */
export interface Pricing {
  /** Items a month the design would answer in production. */
  volume?: number;
  /** USD per million input and output tokens; absent prices leave spend unknown rather than zero. */
  priceIn?: number;
  priceOut?: number;
  /** Minutes a person spends on one escalation (abstention calibration; 4 when absent). */
  handlingMinutes?: number;
  /** Reviewers' marks on flagged items, by resultKey(variant, itemId): could it have been answered? */
  reviews?: ReadonlyMap<string, boolean>;
}

export interface VariantRow {
  name: string;
  kind: EvalVariant['kind'];
  chainId: string;
  step?: string;
  differs?: string;
  n: number;
  correct: number;
  accuracy: number;
  stderr: number;
  /** Variants whose accuracy is within the noise of this one. */
  tiesWith: string[];
  abstained: number;
  failed: number;
  p50Ms: number;
  p95Ms: number;
  /** Per item, mean. */
  inputTokens: number;
  outputTokens: number;
  calls: number;
  spendPerMonth: number | null;
  /** The multiplication behind spendPerMonth, in words. */
  spendFormula: string;
  /** Fire rate, false-abstention share and what it costs a month (fire rate × false share × monthly volume × handling minutes). */
  abstention: AbstentionCalibration;
  /** Judge scorers' calls and tokens per item, counted apart from the variant's (null without a judge). */
  judge: { calls: number; inputTokens: number; outputTokens: number } | null;
}

export interface StepRow {
  variant: string;
  stepId: string;
  runs: number;
  validationFailureRate: number;
  retryRate: number;
  escalationRate: number;
  abstentionRate: number;
  failureRate: number;
  p50Ms: number;
  p95Ms: number;
}

export interface BoundaryRow {
  variant: string;
  boundary: string;
  producer: string;
  consumer: string;
  runs: number;
  sufficient: number;
  insufficient: number;
  unknown: number;
  /** sufficient ÷ decided estimates: the ceiling of what the consumer can answer. */
  sufficiencyRate: number | null;
  labelled: { derivable: number; notDerivable: number; unsure: number; rate: number | null };
  /** Items with gold facts for this boundary (what the sufficiency estimate rested on). */
  goldFacts: number;
  /**
   * Recall@k against the items' gold section and chunk ids, averaged over the items that carry
   * them: on the stage's output and on the text the consumer was sent (a budget that cut a
   * chunk shows as a lower second figure). Null for a stage that outputs no ids.
   */
  recall: { items: number; k: number; output: number; sent: number | null; lostInPrompt: number } | null;
  /** The three questions (can its input be built alone? can its output be judged alone? is the ground truth affordable?) for the stage at this seam, answered from the chain and the labels. */
  questions: SeamQuestions;
}

/** Error compounding on measured rates: the end-to-end success the steps predict, next to the one measured. */
export interface CompoundingRow {
  variant: string;
  rates: StepRate[];
  estimate: CompoundingEstimate;
  predicted: number;
  measured: number;
}

export interface EvalTable {
  items: number;
  variants: VariantRow[];
  steps: StepRow[];
  boundaries: BoundaryRow[];
  compounding: CompoundingRow[];
  /** How "tie" is decided, for the reader. */
  tieRule: string;
}

export const TIE_RULE = 'tie: the accuracy difference is within 1.96 standard errors of the difference (Agresti–Caffo: one success and one failure added to each side, so 0/n and n/n still have noise)';

const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const money = (usd: number) => `$${usd.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const whole = (n: number) => Math.round(n).toLocaleString('en-US');

/** Whether two accuracies are within the noise of each other (TIE_RULE). */
export function withinNoise(a: { correct: number; n: number }, b: { correct: number; n: number }): boolean {
  if (a.n === 0 || b.n === 0) return true;
  const adjusted = (x: { correct: number; n: number }) => {
    const p = (x.correct + 1) / (x.n + 2);
    return { p, variance: (p * (1 - p)) / (x.n + 2) };
  };
  const x = adjusted(a);
  const y = adjusted(b);
  return Math.abs(x.p - y.p) <= 1.96 * Math.sqrt(x.variance + y.variance);
}

function spend(inputTokens: number, outputTokens: number, pricing: Pricing): { value: number | null; formula: string } {
  const { volume, priceIn, priceOut } = pricing;
  if (volume === undefined) return { value: null, formula: 'no monthly volume given (--volume)' };
  if (priceIn === undefined || priceOut === undefined) return { value: null, formula: 'no prices given (--price-in, --price-out, or the profile’s prices)' };
  const value = volume * ((inputTokens * priceIn + outputTokens * priceOut) / 1_000_000);
  return { value, formula: `${whole(volume)} items × (${whole(inputTokens)} in × $${priceIn}/M + ${whole(outputTokens)} out × $${priceOut}/M) = ${money(value)}` };
}

/**
 * @example
 * const table = evalTable(variants, results, { volume: 400_000, priceIn: 0.4, priceOut: 1.6 });
 * for (const row of table.variants) console.log(row.name, row.accuracy, row.tiesWith);
 */
export function evalTable(variants: readonly EvalVariant[], results: readonly ItemResult[], pricing: Pricing = {}): EvalTable {
  const byVariant = new Map<string, ItemResult[]>(variants.map((v) => [v.name, []]));
  for (const r of results) byVariant.get(r.variant)?.push(r);
  const rows: VariantRow[] = variants.map((v) => {
    const rs = byVariant.get(v.name) ?? [];
    const n = rs.length;
    const correct = rs.filter((r) => r.pass).length;
    const accuracy = n ? correct / n : 0;
    const inputTokens = mean(rs.map((r) => r.inputTokens));
    const outputTokens = mean(rs.map((r) => r.outputTokens));
    const cost = spend(inputTokens, outputTokens, pricing);
    return {
      name: v.name, kind: v.kind, chainId: v.chain.id, ...(v.step ? { step: v.step } : {}), ...(v.differs ? { differs: v.differs } : {}),
      n, correct, accuracy, stderr: n ? Math.sqrt((accuracy * (1 - accuracy)) / n) : 0, tiesWith: [],
      abstained: n ? rs.filter((r) => r.abstained).length / n : 0, failed: rs.filter((r) => r.status === 'failed').length,
      p50Ms: percentile(rs.map((r) => r.latencyMs), 50), p95Ms: percentile(rs.map((r) => r.latencyMs), 95),
      inputTokens, outputTokens, calls: mean(rs.map((r) => r.calls)), spendPerMonth: cost.value, spendFormula: cost.formula,
      abstention: abstentionCalibration(rs.map((r) => {
        const review = pricing.reviews?.get(resultKey(r.variant, r.itemId));
        return { itemId: r.itemId, abstained: r.abstained, ...(r.expectedAbstain !== undefined ? { expectedAbstain: r.expectedAbstain } : {}), ...(review !== undefined ? { reviewedAnswerable: review } : {}) };
      }), { ...(pricing.volume !== undefined ? { volume: pricing.volume } : {}), ...(pricing.handlingMinutes !== undefined ? { handlingMinutes: pricing.handlingMinutes } : {}) }),
      judge: rs.some((r) => r.judge) ? { calls: mean(rs.map((r) => r.judge?.calls ?? 0)), inputTokens: mean(rs.map((r) => r.judge?.inputTokens ?? 0)), outputTokens: mean(rs.map((r) => r.judge?.outputTokens ?? 0)) } : null,
    };
  });
  for (const row of rows) row.tiesWith = rows.filter((o) => o !== row && o.n > 0 && row.n > 0 && withinNoise(row, o)).map((o) => o.name);

  const steps: StepRow[] = [];
  for (const v of variants) {
    const perStep = new Map<string, ItemResult['steps']>();
    for (const r of byVariant.get(v.name) ?? []) for (const s of r.steps) perStep.set(s.stepId, [...(perStep.get(s.stepId) ?? []), s]);
    for (const [stepId, all] of perStep) {
      // A step's rates are over the items it ran for: a branch not taken is not a success.
      const ss = all.filter((s) => s.status !== 'skipped');
      const runs = ss.length;
      const rate = (ok: (s: (typeof ss)[number]) => boolean) => (runs ? ss.filter(ok).length / runs : 0);
      steps.push({
        variant: v.name, stepId, runs,
        validationFailureRate: rate((s) => s.invalid > 0), retryRate: rate((s) => s.attempts > 1),
        escalationRate: rate((s) => s.status === 'escalated'), abstentionRate: rate((s) => s.status === 'abstained'), failureRate: rate((s) => s.status === 'failed'),
        p50Ms: percentile(ss.map((s) => s.latencyMs), 50), p95Ms: percentile(ss.map((s) => s.latencyMs), 95),
      });
    }
  }
  const boundaries: BoundaryRow[] = [];
  for (const v of variants) {
    const perBoundary = new Map<string, BoundaryRow>();
    const recalls = new Map<string, NonNullable<ItemResult['boundaries'][number]['recall']>[]>();
    const rs = byVariant.get(v.name) ?? [];
    for (const r of rs) {
      for (const b of r.boundaries) {
        let row = perBoundary.get(b.id);
        if (!row) {
          row = {
            variant: v.name, boundary: b.id, producer: b.producer, consumer: b.consumer, runs: 0, sufficient: 0, insufficient: 0, unknown: 0,
            sufficiencyRate: null, labelled: { derivable: 0, notDerivable: 0, unsure: 0, rate: null }, goldFacts: 0, recall: null,
            questions: { input: { answer: 'no', why: '' }, verdict: { answer: 'no', why: '' }, groundTruth: { answer: 'no', why: '' } },
          };
          perBoundary.set(b.id, row);
        }
        row.runs++;
        row[b.estimate]++;
        if (b.basis === 'gold') row.goldFacts++;
        if (b.label === 'derivable') row.labelled.derivable++;
        else if (b.label === 'not-derivable') row.labelled.notDerivable++;
        else if (b.label === 'unsure') row.labelled.unsure++;
        if (b.recall) recalls.set(b.id, [...(recalls.get(b.id) ?? []), b.recall]);
      }
    }
    for (const row of perBoundary.values()) {
      const decided = row.sufficient + row.insufficient;
      row.sufficiencyRate = decided ? row.sufficient / decided : null;
      const labelled = row.labelled.derivable + row.labelled.notDerivable;
      row.labelled.rate = labelled ? row.labelled.derivable / labelled : null;
      const rc = recalls.get(row.boundary) ?? [];
      const sent = rc.filter((x) => x.sent !== null);
      row.recall = rc.length
        ? { items: rc.length, k: mean(rc.map((x) => x.k)), output: mean(rc.map((x) => x.output)), sent: sent.length ? mean(sent.map((x) => x.sent ?? 0)) : null, lostInPrompt: rc.filter((x) => x.lostInPrompt.length > 0).length }
        : null;
      row.questions = seamQuestions(v.chain, row, rs.length);
      boundaries.push(row);
    }
  }
  const compounding = variants.map((v) => compoundingOf(v, byVariant.get(v.name) ?? [], rows.find((r) => r.name === v.name)?.accuracy ?? 0));
  const items = Math.max(0, ...rows.map((r) => r.n));
  return { items, variants: rows, steps, boundaries, compounding, tieRule: TIE_RULE };
}

/**
 * Per-step rates as the compounding arithmetic takes them, measured: a step's error rate is the share
 * of its runs whose output failed its contract at least once (the schema check sees every one of
 * those, so its catch rate is 1), its retry success the share of those that still succeeded;
 * a gate's failures are errors it caught upstream and no retry fixes; a handoff the sufficiency
 * estimate found insufficient is an error no check saw (uncaught). The product predicts the
 * end-to-end rate; the measured accuracy stands next to it, and the gap is what the arithmetic
 * leaves out (correlated errors, wrong-but-valid outputs).
 */
function compoundingOf(v: EvalVariant, rs: readonly ItemResult[], measured: number): CompoundingRow {
  // Checking steps (gates): their failures are upstream errors they caught.
  const parsed = v.chain.steps.map((st) => parseStep(st, stepRegistry));
  const gates = new Set(parsed.filter((p) => p?.def.checks?.(p.config) !== undefined).map((p) => String(p?.id)));
  // A step that passes its input on (a gate) hands over what its producer made: a loss there is the producer's, counted once.
  const passThrough = new Set(parsed.filter((p) => p?.def.produces.by === 'passThrough').map((p) => String(p?.id)));
  const perStep = new Map<string, { runs: number; invalid: number; recovered: number; failed: number; uncaught: number }>();
  for (const r of rs) {
    for (const st of r.steps) {
      let m = perStep.get(st.stepId);
      if (!m) perStep.set(st.stepId, (m = { runs: 0, invalid: 0, recovered: 0, failed: 0, uncaught: 0 }));
      if (st.status === 'skipped') continue;
      m.runs++;
      if (st.invalid > 0) m.invalid++;
      if (st.invalid > 0 && st.status === 'succeeded') m.recovered++;
      if (st.status === 'failed' || st.status === 'escalated' || st.status === 'abstained') m.failed++;
    }
    const lossy = new Set(r.boundaries.filter((b) => b.estimate === 'insufficient' && !passThrough.has(b.producer)).map((b) => b.producer));
    for (const id of lossy) { const m = perStep.get(id); if (m) m.uncaught++; }
  }
  const rates: StepRate[] = [];
  for (const [stepId, m] of perStep) {
    if (m.runs === 0) continue;
    const gate = gates.has(stepId);
    const errors = gate ? m.failed : m.invalid;
    if (errors === 0 && m.uncaught === 0) continue;
    rates.push({
      stepId, errorRate: errors / m.runs, catchRate: 1,
      retrySuccess: gate || m.invalid === 0 ? 0 : m.recovered / m.invalid,
      ...(m.uncaught > 0 ? { uncaughtRate: m.uncaught / m.runs } : {}),
    });
  }
  const estimate = estimateCompounding(rates);
  return { variant: v.name, rates, estimate, predicted: estimate.gated, measured };
}

/** The table as text, for the terminal: fixed columns, most accurate first, ties named. */
export function formatEvalTable(table: EvalTable): string[] {
  const ordered = [...table.variants].sort((a, b) => b.accuracy - a.accuracy || (a.spendPerMonth ?? Infinity) - (b.spendPerMonth ?? Infinity));
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const rank = new Map(ordered.map((r, i) => [r.name, `#${i + 1}`]));
  const header = ['#', 'variant', 'kind', 'n', 'accuracy', '± se', 'tie with', 'abstain', 'p50 ms', 'p95 ms', 'in tok', 'out tok', 'calls', 'spend/month'];
  const body = ordered.map((r) => [
    rank.get(r.name) ?? '', r.name, r.kind, String(r.n), pct(r.accuracy), pct(r.stderr), r.tiesWith.map((t) => ordered.findIndex((o) => o.name === t) + 1).sort((a, b) => a - b).map((i) => `#${i}`).join(' ') || '–', pct(r.abstained),
    whole(r.p50Ms), whole(r.p95Ms), whole(r.inputTokens), whole(r.outputTokens), r.calls.toFixed(1), r.spendPerMonth === null ? '–' : money(r.spendPerMonth),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < 3 || i === 6 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  const lines = [line(header), ...body.map(line)];
  lines.push('', table.tieRule);
  const decided = table.boundaries.filter((b) => b.sufficiencyRate !== null);
  if (decided.length) {
    lines.push('', 'sufficiency per boundary (estimated; labelled where people labelled):');
    for (const b of decided) {
      const label = b.labelled.rate !== null ? `; labelled ${pct(b.labelled.rate)} derivable of ${b.labelled.derivable + b.labelled.notDerivable}` : '';
      lines.push(`  ${b.variant}: ${b.producer} → ${b.consumer}  ${pct(b.sufficiencyRate ?? 0)} sufficient (${b.sufficient} of ${b.sufficient + b.insufficient}${b.unknown ? `, ${b.unknown} not estimated` : ''})${label}`);
    }
  }
  const measured = table.boundaries.filter((b) => b.recall);
  if (measured.length) {
    lines.push('', 'recall@k on gold ids, on the stage output and on the text sent to the consumer:');
    for (const b of measured) {
      const rc = b.recall as NonNullable<BoundaryRow['recall']>;
      const sent = rc.sent === null ? 'no prompt' : rc.sent.toFixed(2);
      const lost = rc.lostInPrompt ? `; the prompt lost gold in ${rc.lostInPrompt} of ${rc.items} items` : '';
      lines.push(`  ${b.variant}: ${b.producer} → ${b.consumer}  recall@${rc.k.toFixed(1)} output ${rc.output.toFixed(2)}, sent ${sent}${lost}`);
    }
  }
  const firstVariant = table.variants[0]?.name;
  const seams = table.boundaries.filter((b) => b.variant === firstVariant);
  if (seams.length) {
    lines.push('', `seams of ${firstVariant} (input built alone? · output admits a verdict? · ground truth affordable?):`);
    for (const b of seams) {
      const q = b.questions;
      lines.push(`  ${b.producer} → ${b.consumer}: ${q.input.answer} · ${q.verdict.answer} · ${q.groundTruth.answer}  (${q.input.why}; ${q.verdict.why}; ${q.groundTruth.why})`);
    }
  }
  const compounded = table.compounding.filter((c) => c.rates.length > 0);
  if (compounded.length) {
    lines.push('', 'compounding (the chain is right only when every step is), predicted from measured step rates against measured:');
    for (const c of compounded) lines.push(`  ${c.variant}: predicted ${pct(c.predicted)}, measured ${pct(c.measured)}  (${c.estimate.explanation})`);
  }
  for (const r of ordered) {
    if (r.abstention.fired > 0) lines.push(`abstention ${r.name}: ${r.abstention.steps.join('; ')}${r.abstention.toReview.length ? ` (${r.abstention.toReview.length} flagged items await a reviewer)` : ''}`);
  }
  for (const r of ordered) {
    if (r.judge) lines.push(`judge ${r.name}: ${r.judge.calls.toFixed(1)} calls, ${whole(r.judge.inputTokens)} in and ${whole(r.judge.outputTokens)} out tokens per item (not in the variant's calls or spend)`);
  }
  for (const r of ordered) {
    if (r.spendPerMonth !== null) lines.push(`spend ${r.name}: ${r.spendFormula}`);
    if (r.differs) lines.push(`${r.name}: ${r.differs}`);
  }
  if (ordered.every((r) => r.spendPerMonth === null) && ordered[0]) lines.push(`spend: ${ordered[0].spendFormula}`);
  return lines;
}
