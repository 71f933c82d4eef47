import type { Boundary } from '../trace/replay.ts';
import type { BoundaryLabel } from '../trace/events.ts';
import type { BoundaryReport } from './boundary.ts';
import { directInputs } from './consumer-prompt.ts';
import { factsSurvived } from './survival.ts';

/**
 * Sufficiency at a boundary: could the consumer's answer be derived from what it received?
 * A consumer cannot be more right than its input is sufficient, so this caps what it can answer.
 * Here it is estimated wherever the facts the answer needs are known
 * (gold facts from a dataset, or the facts the question asks for), and set by a person in the
 * replay view; both are reported side by side so the estimate can be checked against people.
 */
export type SufficiencyEstimateVerdict = 'sufficient' | 'insufficient' | 'unknown';

export interface SufficiencyEstimate {
  verdict: SufficiencyEstimateVerdict;
  /** What the estimate rests on: gold facts, the question's asked facts, or nothing known. */
  basis: 'gold' | 'asked' | 'none';
  /** Gold facts that did not reach the consumer (empty unless the basis is gold). */
  missing: string[];
  reason: string;
}

export interface BoundarySufficiency {
  boundaryId: string;
  producer: string;
  consumer: string;
  estimate: SufficiencyEstimate;
  label: BoundaryLabel | null;
}

export interface SufficiencySummary {
  boundaries: number;
  estimated: { sufficient: number; insufficient: number; unknown: number; /** sufficient ÷ (sufficient + insufficient), or null. */ rate: number | null };
  labelled: { derivable: number; notDerivable: number; unsure: number; /** derivable ÷ (derivable + not derivable), or null. */ rate: number | null };
  /** Boundaries with both a decided estimate and a decided label, and how many agree. */
  compared: number;
  agree: number;
}

/** Gold facts for every boundary (a list), or per boundary id or producer step id. */
export type GoldFacts = readonly string[] | Readonly<Record<string, readonly string[]>>;

const looseText = (s: string) => s.toLowerCase().replace(/[–—]/g, '-').replace(/[“”]/g, '"').replace(/\s+/g, ' ').trim();

function strings(value: unknown, out: string[], depth = 0): string[] {
  if (depth > 64) return out;
  if (typeof value === 'string') out.push(value);
  else if (typeof value === 'number') out.push(String(value));
  else if (Array.isArray(value)) for (const v of value) strings(v, out, depth + 1);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) strings(v, out, depth + 1);
  return out;
}

/**
 * Whether one gold fact reached the intermediate. A fact the extractor recognises (a duration,
 * an amount, a section id…) is judged by the survival analysis, on meaning ("180 calendar
 * days" survives as "180-day period"); a fact it does not recognise (a name, a phrase) must
 * appear as text, case and spacing aside.
 */
export function goldFactSurvives(fact: string, intermediate: unknown): boolean {
  return goldFactsMissing([fact], intermediate).length === 0;
}

/**
 * The gold facts that did not reach the intermediate, judged as goldFactSurvives judges each,
 * with the intermediate indexed once for all of them (an eval scores every item this way).
 */
export function goldFactsMissing(facts: readonly string[], intermediate: unknown): string[] {
  const judged = factsSurvived(facts.map((text, i) => ({ name: String(i), text })), intermediate);
  let loose: string | undefined;
  return facts.filter((fact, i) => {
    const own = judged.filter((f) => f.source === String(i));
    if (own.length > 0) return own.some((f) => !f.survived);
    const wanted = looseText(fact);
    loose ??= looseText(strings(intermediate, []).join('\n'));
    return wanted !== '' && !loose.includes(wanted);
  });
}

/**
 * The estimate on gold facts alone: what reached `consumer` of what the answer needs, through
 * the handoff or in an input the consumer is given itself (`direct`: a retrieve step reads the
 * document beside the rewritten query, so the query's boundary cannot lose the document's facts).
 */
export function goldSufficiency(intermediate: unknown, consumer: string, gold: readonly string[], direct: readonly { name: string; text: string }[] = []): SufficiencyEstimate {
  const wanted = gold.map((f) => f.trim()).filter(Boolean);
  const notHandedOver = goldFactsMissing(wanted, intermediate);
  const missing = notHandedOver.length && direct.length ? goldFactsMissing(notHandedOver, direct.map((d) => d.text)) : notHandedOver;
  if (missing.length > 0) return { verdict: 'insufficient', basis: 'gold', missing, reason: `${missing.length} of ${wanted.length} gold facts did not reach ${consumer}: ${missing.join('; ')}` };
  const all = `all ${wanted.length} gold fact${wanted.length === 1 ? '' : 's'}`;
  if (notHandedOver.length === 0) return { verdict: 'sufficient', basis: 'gold', missing, reason: `${all} reached ${consumer}` };
  const names = direct.map((d) => `"${d.name}"`).join(', ');
  return { verdict: 'sufficient', basis: 'gold', missing, reason: `${all} are within ${consumer}'s reach: ${notHandedOver.length} not in the handoff but in ${names}, which it is given itself` };
}

export function goldFor(gold: GoldFacts | undefined, boundary: Pick<Boundary, 'id' | 'producer'>): readonly string[] | undefined {
  if (!gold) return undefined;
  if (Array.isArray(gold)) return gold as readonly string[];
  const byPlace = gold as Readonly<Record<string, readonly string[]>>;
  return Object.hasOwn(byPlace, boundary.id) ? byPlace[boundary.id] : Object.hasOwn(byPlace, boundary.producer) ? byPlace[boundary.producer] : undefined;
}

/**
 * @example
 * const estimate = estimateSufficiency(boundary, inspectBoundary(boundary), ['180 calendar days']);
 * if (estimate.verdict === 'insufficient') console.log(estimate.missing);
 */
export function estimateSufficiency(boundary: Boundary, report: BoundaryReport, gold?: readonly string[]): SufficiencyEstimate {
  if (gold?.some((f) => f.trim() !== '')) return goldSufficiency(boundary.intermediate, report.consumer, gold, directInputs(boundary));
  if (report.lossy) return { verdict: 'insufficient', basis: 'asked', missing: [], reason: report.reasons.join('; ') };
  // The facts the question is about (ranked by relevance): one of them reaching the consumer whole is enough to answer.
  const keptAsked = report.askedFacts.filter((a) => a.status === 'survived' && !report.sourcesAlsoReceived.includes(a.fact.source));
  if (keptAsked.length > 0) {
    const best = keptAsked[0] as (typeof keptAsked)[number];
    return { verdict: 'sufficient', basis: 'asked', missing: [], reason: `the fact the question is about reached ${report.consumer}: ${best.fact.text} (${best.why})` };
  }
  const reachable = report.survival.facts.filter((f) => !report.sourcesAlsoReceived.includes(f.source));
  const askedKept = reachable.filter((f) => report.asked.includes(f.kind) && f.survived);
  if (askedKept.length > 0) {
    return { verdict: 'sufficient', basis: 'asked', missing: [], reason: `${askedKept.length} source fact${askedKept.length === 1 ? '' : 's'} of the asked kind (${report.asked.join(', ')}) reached ${report.consumer}` };
  }
  return {
    verdict: 'unknown', basis: 'none', missing: [],
    reason: report.asked.length ? `the sources hold no ${report.asked.join(' or ')} the question asks for` : 'neither gold facts nor an asked kind of fact are known for this boundary',
  };
}

export function summarizeSufficiency(list: readonly BoundarySufficiency[]): SufficiencySummary {
  const count = <T>(xs: readonly T[], ok: (x: T) => boolean) => xs.filter(ok).length;
  const sufficient = count(list, (b) => b.estimate.verdict === 'sufficient');
  const insufficient = count(list, (b) => b.estimate.verdict === 'insufficient');
  const derivable = count(list, (b) => b.label?.verdict === 'derivable');
  const notDerivable = count(list, (b) => b.label?.verdict === 'not-derivable');
  const both = list.filter((b) => b.estimate.verdict !== 'unknown' && b.label && b.label.verdict !== 'unsure');
  const agree = count(both, (b) => (b.estimate.verdict === 'sufficient') === (b.label?.verdict === 'derivable'));
  const rate = (yes: number, no: number) => (yes + no > 0 ? yes / (yes + no) : null);
  return {
    boundaries: list.length,
    estimated: { sufficient, insufficient, unknown: list.length - sufficient - insufficient, rate: rate(sufficient, insufficient) },
    labelled: { derivable, notDerivable, unsure: count(list, (b) => b.label?.verdict === 'unsure'), rate: rate(derivable, notDerivable) },
    compared: both.length,
    agree,
  };
}
