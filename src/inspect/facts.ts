import { conditions, dates, durations, ids, money, numbers, percentages, sections, type Emit, type Extractor } from './fact-extractors.ts';

/**
 * Fact extraction: the specific, uninferable figures a summary tends to drop (durations,
 * money, percentages, dates, ids, section numbers, named conditions). Precision over
 * recall: a noisy extractor would flag every handoff as lossy and teach people to ignore it.
 * Browser-safe and pure; every pattern is precompiled and runs once over the text.
 */
export const FACT_KINDS = ['duration', 'money', 'percentage', 'date', 'number', 'id', 'section', 'condition'] as const;
export type FactKind = (typeof FACT_KINDS)[number];

export interface Fact {
  kind: FactKind;
  /** The verbatim span, `text.slice(start, end)`. */
  text: string;
  start: number;
  end: number;
  value?: number;
  unit?: string;
  /** A surface-independent form: "180 day", "$1500", "5%", "2006-01-01", "1395w-22", "expedited". */
  normalized: string;
}

const unitMinutes: Record<string, number> = { minute: 1, hour: 60, day: 1440, week: 10080 };

/**
 * The key two facts must share to be "the same fact": durations compare as a quantity of
 * time (72 hours = 3 days, 2 weeks = 14 days), everything else by its normalized form.
 */
export function factKey(fact: Fact): string {
  if (fact.kind === 'duration' && fact.value !== undefined && fact.unit) {
    const per = unitMinutes[fact.unit];
    if (per !== undefined) return `duration:${fact.value * per}m`;
    if (fact.unit === 'month' || fact.unit === 'year') return `duration:${fact.value * (fact.unit === 'year' ? 12 : 1)}mo`;
  }
  return `${fact.kind}:${fact.normalized.toLowerCase()}`;
}

// Priority order: an earlier extractor's span wins any overlap (money before number,
// durations before section lists, so "and 1 day" after a section list stays a duration).
const extractors: Extractor[] = [money, percentages, dates, durations, sections, ids, conditions, numbers];

/**
 * Every fact in `text`, in order of position. Spans never overlap.
 *
 * @example
 * extractFacts('Appeal within 180 calendar days; expedited appeals within 72 hours.')
 * // → duration "180 day", condition "expedited", duration "72 hour"
 */
export function extractFacts(text: string): Fact[] {
  const taken = new Uint8Array(text.length);
  const facts: Fact[] = [];
  const emit: Emit = (kind, start, end, normalized, value, unit) => {
    for (let i = start; i < end; i++) if (taken[i]) return;
    taken.fill(1, start, end);
    const fact: Fact = { kind, text: text.slice(start, end), start, end, normalized };
    if (value !== undefined) fact.value = value;
    if (unit !== undefined) fact.unit = unit;
    facts.push(fact);
  };
  // toLowerCase keeps offsets unless a character changes length (Turkish İ); then fold ASCII only.
  let lower = text.toLowerCase();
  if (lower.length !== text.length) lower = text.replace(/[A-Z]/g, (c) => c.toLowerCase());
  for (const extract of extractors) extract(text, lower, emit);
  return facts.sort((a, b) => a.start - b.start);
}
