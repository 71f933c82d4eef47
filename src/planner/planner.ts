import type { CountedUnit } from '../steps/index.ts';
import { partitionUnits } from '../steps/partition.ts';
import { wallClock, type WallClock } from './wall-clock.ts';

/**
 * The decomposition planner: for a job whose reply is longer than one call may emit,
 * what each number of groups costs — seams, duplicated shared context, output per group against
 * the cap, input per call against the window, tokens, money, wall clock and the chance a call
 * fails — and the fewest groups that fit. Pure arithmetic over counted units; nothing is called.
 */
export interface WriterModel {
  window: number;
  cap: number;
  tokensPerSecond: number;
  /** USD per million tokens. */
  prices: { input: number; output: number };
}

/** The two-pass design's reader: reads the assembled rewrite and the original, emits a defect list. */
export interface ReaderModel {
  window: number;
  tokensPerSecond: number;
  prices: { input: number; output: number };
  defectListTokens: number;
}

export interface PlanJob {
  units: readonly CountedUnit[];
  /** The context sent whole with every group (definitions, parties, style guide). */
  sharedTokens: number;
  /**
   * How much of the shared context is already part of the document (a contract's definitions
   * clauses): a single pass reads it once with the document, so its input is source + shared −
   * this. Groups still pay the whole shared block each, as in 9 groups × 3,800 shared + a 40,500-token source.
   */
  sharedInDocumentTokens: number;
  /** The whole output expected; absent, the source tokens × expansion. */
  outputTokens?: number;
  expansion: number;
  /** Share of the cap a group may plan to use. */
  headroom: number;
  writer: WriterModel;
  reader: ReaderModel;
  /** Chance that one call fails, 0–1. */
  failRate: number;
  /** Granularities to evaluate; absent, a range around the recommendation. */
  groups?: readonly number[];
}

export interface Granularity {
  groups: number;
  seams: number;
  duplicatedSharedTokens: number;
  /** The largest group's projected output: the one that must clear the cap. */
  outputTokensPerGroup: number;
  inputTokensPerCall: number;
  totalInputTokens: number;
  totalOutputTokens: number;
  costUsd: number;
  failureProbability: number;
  /** The largest group's output fits under the cap at all. */
  fitsCap: boolean;
  /** The largest call's input leaves the planned output's room in the window (as the split step checks). */
  fitsWindow: boolean;
  wallClock: WallClock;
  /** The largest output among groups the grouping could cut (a lone unit too big to share a group left out). */
  plannedOutputTokensPerGroup: number;
  /** Every group's output within headroom × cap (a lone outsized unit within the cap excepted): what the recommendation asks. */
  withinHeadroom: boolean;
  pairsWithinGroups: number;
  /** The retry unit: one group, at most this many units, under a key stable across runs. */
  largestGroupUnits: number;
  /** With sequential carryover, the first call whose input passes the window (null: none does). */
  sequentialPassesWindowAtCall: number | null;
  /** Parallel cost plus the reader's pass and one rerun of the largest group. */
  twoPassCostUsd: number;
}

export interface Plan {
  units: number;
  sourceTokens: number;
  pairs: { whole: number; withinGroups: number };
  /** The fewest groups that fit; null when no grouping can (one unit alone is too big). */
  recommended: number | null;
  why: string;
  warnings: string[];
  onePass: { inputTokens: number; outputTokens: number; fitsCap: boolean; fitsWindow: boolean };
  granularities: Granularity[];
}

/** The planning defaults: rewrites ~20% longer, 60% of the cap, 60 tokens/s, 0.5% per-call failure, a 900-token defect list. */
export const PLAN_DEFAULTS = { expansion: 1.2, headroom: 0.6, tokensPerSecond: 60, failRate: 0.005, defectListTokens: 900 } as const;

const pairsOf = (n: number) => (n * (n - 1)) / 2;
const sum = (units: readonly CountedUnit[]) => units.reduce((n, u) => n + u.tokens, 0);
// A loop, not Math.max(...xs): a plan may have 100,000 groups, past what a spread call may pass.
const maxOf = (xs: readonly number[]) => xs.reduce((m, x) => (x > m ? x : m), 0);
const usd = (input: number, output: number, prices: { input: number; output: number }) => (input * prices.input + output * prices.output) / 1e6;

/** The shape of one grouping, before it is priced. */
interface Shape {
  groups: CountedUnit[][];
  largestSource: number;
  /** The largest group's projected output. */
  outputPerGroup: number;
  /** The largest output among groups the grouping could have cut (lone outsized units left out). */
  plannedOutputPerGroup: number;
  inputPerCall: number;
  /** Every group within headroom × cap, except a lone unit that cannot be cut and still fits the cap. */
  withinHeadroom: boolean;
  /** Every call's input leaves its output's room in the window (at least the planned headroom, as the split step checks). */
  fitsWindow: boolean;
}

interface Limits {
  outLimit: number;
  outputPerSource: number;
}

function shapeOf(job: PlanJob, count: number, limits: Limits): Shape {
  const groups = partitionUnits(job.units, count);
  const { outLimit, outputPerSource } = limits;
  const sized = groups.map((g) => ({ units: g.length, source: sum(g), output: Math.round(sum(g) * outputPerSource) }));
  const largestSource = maxOf(sized.map((g) => g.source));
  return {
    groups, largestSource,
    outputPerGroup: maxOf(sized.map((g) => g.output)),
    plannedOutputPerGroup: maxOf(sized.filter((g) => g.units > 1 || g.output <= outLimit).map((g) => g.output)),
    inputPerCall: job.sharedTokens + largestSource,
    withinHeadroom: sized.every((g) => g.output <= outLimit || (g.units === 1 && g.output <= job.writer.cap)),
    fitsWindow: sized.every((g) => job.sharedTokens + g.source <= job.writer.window - Math.max(outLimit, g.output)),
  };
}

export function planJob(job: PlanJob): Plan {
  const sourceTokens = sum(job.units);
  const totalOutput = Math.round(job.outputTokens ?? sourceTokens * job.expansion);
  // Output per source token: the expansion, or what the stated total output implies.
  const outputPerSource = sourceTokens > 0 ? totalOutput / sourceTokens : job.expansion;
  const outLimit = job.writer.cap * job.headroom;
  // The split step's window rule: a call's input leaves the planned output's room.
  const inLimit = job.writer.window - outLimit;
  const limits = { outLimit, outputPerSource };

  const recommended = recommend(job, limits);
  const counts = chosenCounts(job, recommended?.groups.length ?? null);
  const granularities = counts.map((g) => priceGranularity(job, shapeOf(job, g, limits), { sourceTokens, totalOutput, outLimit, inLimit }));
  const atRecommended = recommended ?? shapeOf(job, counts[0] ?? 1, limits);
  const withinGroups = atRecommended.groups.reduce((n, g) => n + pairsOf(g.length), 0);
  const whole = pairsOf(job.units.length);
  const onePassInput = sourceTokens + job.sharedTokens - job.sharedInDocumentTokens;
  return {
    units: job.units.length,
    sourceTokens,
    pairs: { whole, withinGroups },
    recommended: recommended?.groups.length ?? null,
    why: explain(job, recommended, shapeOf(job, Math.max(1, (recommended?.groups.length ?? 1) - 1), limits), outLimit, inLimit),
    warnings: warningsFor(job, { whole, withinGroups, groups: atRecommended.groups.length, totalOutput, sourceTokens, outLimit, outputPerSource }),
    onePass: { inputTokens: onePassInput, outputTokens: totalOutput, fitsCap: totalOutput <= job.writer.cap, fitsWindow: onePassInput + Math.min(totalOutput, job.writer.cap) <= job.writer.window },
    granularities,
  };
}

/**
 * The fewest groups that all fit, or null when even one unit per group does not. Fewer groups
 * than `lowerBound` cannot fit, so the search starts there, gallops upwards (+1, +2, +4…) to a
 * count that fits, then bisects back: a few dozen partitions even for 100,000 units. It relies on
 * more groups never fitting worse, which balanced contiguous groups hold to within a section's
 * slack; the count it returns always fits.
 */
function recommend(job: PlanJob, limits: Limits): Shape | null {
  const n = job.units.length;
  const fits = (s: Shape) => s.withinHeadroom && s.fitsWindow;
  const finest = shapeOf(job, n, limits);
  if (n === 0 || !fits(finest)) return null;
  let failed = lowerBound(job, limits) - 1;
  let fitting = n;
  let best = finest;
  for (let g = failed + 1, step = 1; g < n; g = Math.min(n, g + step), step *= 2) {
    const shape = shapeOf(job, g, limits);
    if (fits(shape)) {
      [fitting, best] = [g, shape];
      break;
    }
    failed = g;
  }
  while (fitting - failed > 1) {
    const mid = Math.floor((failed + fitting) / 2);
    const shape = shapeOf(job, mid, limits);
    if (fits(shape)) [fitting, best] = [mid, shape];
    else failed = mid;
  }
  return best;
}

/** Each unit too big to share a group needs one of its own; the rest need their output ÷ the limit. */
function lowerBound(job: PlanJob, limits: Limits): number {
  const outsized = job.units.filter((u) => u.tokens * limits.outputPerSource > limits.outLimit);
  const rest = (sum(job.units) - sum(outsized)) * limits.outputPerSource;
  return Math.max(1, Math.min(job.units.length, outsized.length + Math.ceil(rest / limits.outLimit)));
}

/** The asked granularities, else the recommendation, about 1.5× and 3× it (for a recommendation of 6: 6 / 9 / 18). */
function chosenCounts(job: PlanJob, recommended: number | null): number[] {
  const n = Math.max(1, job.units.length);
  const base = recommended ?? n;
  const asked = job.groups?.length ? [...job.groups] : [base, Math.round(base * 1.5), base * 3];
  return [...new Set(asked.map((g) => Math.max(1, Math.min(n, Math.floor(g)))))].sort((a, b) => a - b);
}

function priceGranularity(job: PlanJob, s: Shape, totals: { sourceTokens: number; totalOutput: number; outLimit: number; inLimit: number }): Granularity {
  const g = s.groups.length;
  const totalInput = job.sharedTokens * g + totals.sourceTokens;
  const costUsd = usd(totalInput, totals.totalOutput, job.writer.prices);
  const readerInput = totals.totalOutput + totals.sourceTokens;
  return {
    groups: g,
    seams: Math.max(0, g - 1),
    duplicatedSharedTokens: job.sharedTokens * g,
    outputTokensPerGroup: s.outputPerGroup,
    inputTokensPerCall: s.inputPerCall,
    totalInputTokens: totalInput,
    totalOutputTokens: totals.totalOutput,
    costUsd,
    failureProbability: 1 - (1 - job.failRate) ** g,
    fitsCap: s.outputPerGroup <= job.writer.cap,
    fitsWindow: s.fitsWindow,
    wallClock: wallClock({
      groups: g, outputTokensPerGroup: s.outputPerGroup, totalOutputTokens: totals.totalOutput, tokensPerSecond: job.writer.tokensPerSecond,
      reduceInputRoom: totals.inLimit - job.sharedTokens, reduceOutputLimit: totals.outLimit,
      defectListTokens: job.reader.defectListTokens, readerTokensPerSecond: job.reader.tokensPerSecond,
    }),
    plannedOutputTokensPerGroup: s.plannedOutputPerGroup,
    withinHeadroom: s.withinHeadroom,
    pairsWithinGroups: s.groups.reduce((n, grp) => n + pairsOf(grp.length), 0),
    largestGroupUnits: maxOf(s.groups.map((grp) => grp.length)),
    sequentialPassesWindowAtCall: sequentialOverflow(job, s, totals.totalOutput / Math.max(1, totals.sourceTokens), totals.inLimit),
    twoPassCostUsd: costUsd + usd(readerInput, job.reader.defectListTokens, job.reader.prices) + usd(s.inputPerCall, s.outputPerGroup, job.writer.prices),
  };
}

/** Sequential carryover: call k reads the shared context, its own group and every rewrite before it. */
function sequentialOverflow(job: PlanJob, s: Shape, outputPerSource: number, inLimit: number): number | null {
  let carried = 0;
  for (const [k, group] of s.groups.entries()) {
    const own = sum(group);
    if (job.sharedTokens + own + carried > inLimit) return k + 1;
    carried += own * outputPerSource;
  }
  return null;
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

function explain(job: PlanJob, rec: Shape | null, fewer: Shape, outLimit: number, inLimit: number): string {
  const limit = `${Math.round(job.headroom * 100)}% of the ${fmt(job.writer.cap)}-token cap (${fmt(outLimit)})`;
  if (!rec) return `No grouping fits: a single unit alone projects past ${limit} or past the ${fmt(job.writer.window)}-token window, so the job cannot be split at unit boundaries.`;
  const g = rec.groups.length;
  const lone = rec.outputPerGroup > rec.plannedOutputPerGroup ? ` (a unit too big to share a group projects ${fmt(rec.outputPerGroup)} on its own)` : '';
  const head = `${g} group${g === 1 ? '' : 's'}: the fewest whose largest rewrite (${fmt(rec.plannedOutputPerGroup)} tokens) stays within ${limit}${lone}, with at most ${fmt(rec.inputPerCall)} tokens of input per call`;
  if (g === 1) return `${head}; one call does the job, with no seams.`;
  const over = !fewer.withinHeadroom ? `${fmt(fewer.plannedOutputPerGroup)} tokens of output in a group` : `${fmt(fewer.inputPerCall)} tokens of input, over ${fmt(inLimit)}`;
  return `${head}; ${g - 1} would need ${over}, and each group beyond ${g} adds ${fmt(job.sharedTokens)} tokens of shared context and a seam.`;
}

function warningsFor(job: PlanJob, p: { whole: number; withinGroups: number; groups: number; totalOutput: number; sourceTokens: number; outLimit: number; outputPerSource: number }): string[] {
  const warnings: string[] = [];
  const outsized = job.units.filter((u) => u.tokens * p.outputPerSource > p.outLimit);
  if (outsized.length) {
    const first = outsized[0]!;
    warnings.push(`${outsized.length === 1 ? `Unit ${first.id} alone projects` : `${outsized.length} units alone project (${first.id} first:`} ${fmt(first.tokens * p.outputPerSource)} tokens${outsized.length === 1 ? '' : ')'}, over the ${fmt(p.outLimit)} planned per group: ${outsized.length === 1 ? 'it gets' : 'each gets'} a group of its own, with less room for a long rewrite${first.tokens * p.outputPerSource > job.writer.cap ? ', and is past the cap itself' : ''}.`);
  }
  const kept = p.whole > 0 ? p.withinGroups / p.whole : 1;
  // The planner cannot tell a rewrite from a search for contradictions; it says what a split discards.
  if (p.groups > 1 && kept < 0.5) {
    warnings.push(`Split into ${p.groups} groups, calls see ${fmt(p.withinGroups)} of the ${fmt(p.whole)} unit pairs (${(kept * 100).toFixed(0)}%): fine for a rewrite whose units depend on the shared context, wrong for a globally dependent job (contradictions, duplicates across the document), which needs one reader of the whole.`);
  }
  const readerInput = p.totalOutput + p.sourceTokens;
  if (readerInput + job.reader.defectListTokens > job.reader.window) {
    warnings.push(`The two-pass reader would read ${fmt(readerInput)} tokens (the rewrite and the original), past its ${fmt(job.reader.window)}-token window: give it a model with a larger window.`);
  }
  return warnings;
}
