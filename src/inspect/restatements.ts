import { NUM, parseAmount, WORD } from './fact-patterns.ts';
import type { Fact } from './facts.ts';
import { matchesOf } from './matches.ts';

/**
 * How an intermediate restates a figure it did not keep exactly: roughly ("two months" for a
 * 60-day period, "about three months" for 90 days, "January 2017" for January 9, 2017), or as
 * the same number with another unit or qualifier ("60 business days" for 60 days, "$50" for
 * 50%). An approximation and a change are both losses; they are told apart from a plain drop so
 * a person sees what the intermediate said instead.
 */

/** Rough words in front of a quantity. */
const HEDGE = String.raw`(?:about|around|roughly|approximately|approx\.|nearly|almost|some|just (?:over|under)|a little (?:over|under)|more than|less than|over|under)`;
const AMOUNT = `(?:${NUM}|${WORD}|an?|half an?|a couple of|a few|several)`;
const TIME_UNIT = String.raw`(?:(calendar|business|working)\s+)?(minute|hour|day|week|fortnight|month|year)s?(?:['’]s)?`;

/** Groups: 1 hedge, 2 amount, 3 "and a half", 4 qualifier, 5 unit; or 6 "half a" unit 7. */
const durationRe = new RegExp(
  `\\b(?:(${HEDGE})\\s+)?(${AMOUNT})(?:\\s+(and a half))?\\s+${TIME_UNIT}(?:\\s+and a half)?\\b|\\bhalf an?\\s+(minute|hour|day|week|month|year)\\b`,
  'gi',
);
const hedgedAmountRe = new RegExp(`\\b(${HEDGE})\\s+(?:(\\$|US\\$|€|£)\\s?(${NUM})|(${NUM}|${WORD})\\s*(%|percent|per cent))`, 'gi');
const spelledRe = new RegExp(`(?<![\\w-])(${WORD})(?![\\w-])`, 'gi');
const yearRe = /(?<![\w.,$-])((?:19|20)\d{2})(?![\w]|[.,]?\d)/g;
const monthYearRe = /\b(Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?,?\s+((?:19|20)\d{2})\b/g;

const daysPer: Record<string, number> = { minute: 1 / 1440, hour: 1 / 24, day: 1, week: 7, fortnight: 14, month: 30.44, year: 365.25 };

export interface StatedQuantity {
  kind: 'duration' | 'money' | 'percentage';
  /** The number as written (2 in "two months"). */
  value: number;
  /** Durations in days; money and percentages as the value. */
  size: number;
  unit: string;
  business: boolean;
  hedged: boolean;
  text: string;
}

export interface QuantityIndex {
  quantities: StatedQuantity[];
  /** "2010", and "2010-03" for "March 2010". */
  periods: Map<string, string>;
}

function amountOf(raw: string): number | undefined {
  const a = raw.toLowerCase();
  if (a === 'a' || a === 'an') return 1;
  if (a === 'a couple of') return 2;
  if (a.startsWith('half')) return 0.5;
  if (a === 'a few' || a === 'several') return undefined;
  return parseAmount(raw);
}

const monthNumber = (name: string) => ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'].indexOf(name.slice(0, 3).toLowerCase()) + 1;

/** Spelled numbers from two up, and "one" (read only where the words around it match, by the caller). */
export function spelledNumbers(text: string): { value: number; start: number; end: number }[] {
  const found: { value: number; start: number; end: number }[] = [];
  for (const m of matchesOf(spelledRe, text)) {
    const value = parseAmount(m[1]!);
    if (value !== undefined && value >= 1) found.push({ value, start: m.index, end: m.index + m[0].length });
  }
  return found;
}

export function indexQuantities(text: string): QuantityIndex {
  const quantities: StatedQuantity[] = [];
  for (const m of matchesOf(durationRe, text)) {
    if (m[7]) {
      quantities.push({ kind: 'duration', value: 0.5, size: 0.5 * (daysPer[m[7].toLowerCase()] ?? 0), unit: m[7].toLowerCase(), business: false, hedged: true, text: m[0] });
      continue;
    }
    const amount = amountOf(m[2]!);
    if (amount === undefined) continue;
    const unit = (m[5] ?? '').toLowerCase();
    const half = m[3] !== undefined || /and a half$/i.test(m[0]);
    const value = amount + (half ? 0.5 : 0);
    const qualifier = (m[4] ?? '').toLowerCase();
    const hedged = m[1] !== undefined || /^(?:a couple of)$/i.test(m[2]!);
    quantities.push({ kind: 'duration', value, size: value * (daysPer[unit] ?? 0), unit, business: qualifier === 'business' || qualifier === 'working', hedged, text: m[0] });
  }
  for (const m of matchesOf(hedgedAmountRe, text)) {
    if (m[3] !== undefined) {
      const value = Number(m[3].replace(/,/g, ''));
      quantities.push({ kind: 'money', value, size: value, unit: m[2]!, business: false, hedged: true, text: m[0] });
    } else {
      const value = parseAmount(m[4]!);
      if (value !== undefined) quantities.push({ kind: 'percentage', value, size: value, unit: '%', business: false, hedged: true, text: m[0] });
    }
  }
  const periods = new Map<string, string>();
  for (const m of matchesOf(monthYearRe, text)) periods.set(`${m[2]}-${String(monthNumber(m[1]!)).padStart(2, '0')}`, m[0]);
  for (const m of matchesOf(yearRe, text)) if (!periods.has(m[1]!)) periods.set(m[1]!, m[0]);
  return { quantities, periods };
}

/** How far apart two sizes are, relative to the source's. */
const off = (a: number, b: number) => Math.abs(a - b) / Math.max(Math.abs(b), 1e-9);

/** Within 10% is a rounding ("two months" for 60 days); a hedge ("about") allows 25%. */
const CLOSE = 0.1;
const HEDGED_CLOSE = 0.25;

/**
 * What the intermediate says instead of a fact it did not keep, if anything: an approximation
 * or a change. Null when it says nothing that stands for the fact.
 */
export function findRestatement(fact: Fact, index: QuantityIndex): { status: 'approximated' | 'changed'; text: string } | null {
  if (fact.kind === 'date') {
    const day = /^(\d{4})-(\d{2})(?:-\d{2})?$/.exec(fact.normalized);
    if (!day) return null;
    const text = index.periods.get(`${day[1]}-${day[2]}`) ?? index.periods.get(day[1]!);
    return text ? { status: 'approximated', text } : null;
  }
  if (fact.value === undefined) return null;
  if (fact.kind === 'duration' && fact.unit) {
    const business = fact.unit.startsWith('business');
    const unit = fact.unit.replace(/^business /, '');
    const size = fact.value * (daysPer[unit] ?? 0);
    if (!size) return null;
    let changed: string | null = null;
    for (const q of index.quantities) {
      if (q.kind !== 'duration') continue;
      const d = off(q.size, size);
      // Business days and calendar days are different lengths of time: a change, however close.
      if (d === 0 && q.business === business && !q.hedged) continue; // an exact restatement, already counted as survival
      if (q.hedged ? d <= HEDGED_CLOSE : d <= CLOSE && (q.business === business || q.unit !== unit)) {
        if (q.business === business || q.unit !== unit) return { status: 'approximated', text: q.text };
      }
      if (q.value === fact.value && (q.unit !== unit || q.business !== business)) changed ??= q.text;
    }
    return changed ? { status: 'changed', text: changed } : null;
  }
  if (fact.kind === 'money' || fact.kind === 'percentage') {
    for (const q of index.quantities) {
      if (q.kind !== fact.kind) continue;
      if (off(q.size, fact.value) <= HEDGED_CLOSE) return { status: 'approximated', text: q.text };
    }
  }
  return null;
}
