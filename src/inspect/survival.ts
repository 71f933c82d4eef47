import { extractFacts, factKey, FACT_KINDS, type Fact, type FactKind } from './facts.ts';

/**
 * Fact survival across a handoff: which facts of the sources can still be found in the
 * intermediate. "Found" is judged on meaning, not surface: "180 calendar days" survives as
 * "180-day period" or as `{"days": 180}`, "$1,500" as "1500 dollars".
 */
export interface Occurrence {
  start: number;
  end: number;
  /** 1-based line in the source. */
  line: number;
}

export interface SurvivalFact extends Fact {
  source: string;
  survived: boolean;
  /** 1-based line of the first occurrence (the one `start`/`end` point at). */
  line: number;
  /** Every place the same fact appears in this source; it is judged once. */
  occurrences: Occurrence[];
}

export interface SurvivalReport {
  /** One entry per distinct fact per source, in source order. */
  facts: SurvivalFact[];
  dropped: SurvivalFact[];
  survived: SurvivalFact[];
  byKind: Record<FactKind, { total: number; dropped: number }>;
}

/** What the intermediate contains, indexed once so each source fact is a Set lookup. */
interface IntermediateIndex {
  keys: Set<string>;
  /** Numbers standing alone (JSON number leaves, unit-less numbers in text): a figure kept without its unit still survived. */
  bare: Set<number>;
  /** All string content, lowercased, dashes and spaces normalised, for containment of ids, sections and terms. */
  loose: string;
}

const looseForm = (s: string) => s.toLowerCase().replace(/[–—]/g, '-').replace(/[“”]/g, '"').replace(/\s+/g, ' ');

/** Walks a JSON intermediate leaf by leaf: stringifying it would glue "\n" escapes onto words. */
function collectLeaves(value: unknown, strings: string[], numbers: number[], depth = 0): void {
  if (depth > 64) return;
  if (typeof value === 'string') strings.push(value);
  else if (typeof value === 'number' && Number.isFinite(value)) numbers.push(value);
  else if (Array.isArray(value)) for (const v of value) collectLeaves(v, strings, numbers, depth + 1);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) collectLeaves(v, strings, numbers, depth + 1);
}

function indexIntermediate(intermediate: unknown): IntermediateIndex {
  const strings: string[] = [];
  const numbers: number[] = [];
  collectLeaves(intermediate, strings, numbers);
  const keys = new Set<string>();
  const bare = new Set<number>(numbers);
  for (const n of numbers) keys.add(`number:${n}`);
  // One pass over all leaves. NUL is neither whitespace nor a word character to any pattern,
  // so no fact can span two leaves ("within 180" | "days later" stays two fragments).
  for (const fact of extractFacts(strings.join('\u0000'))) {
    keys.add(factKey(fact));
    if (fact.kind === 'number' && fact.value !== undefined && !fact.unit) bare.add(fact.value);
  }
  const loose = looseForm(strings.join('\n'));
  // A share restated in words ("covered at half the cost") keeps the percentage it names.
  for (const m of loose.matchAll(shareWordsRe)) {
    const share = shareWords[(m[1] ?? '').replace(/^(?:a|one)\s+/, '')];
    if (share !== undefined) keys.add(`percentage:${share}%`);
  }
  return { keys, bare, loose };
}

const shareWords: Record<string, string> = { half: '50', quarter: '25', 'three quarters': '75', third: '33', 'two thirds': '67' };
const shareWordsRe = /\b((?:a |one )?half|(?:a |one )?quarter|three quarters|(?:a |one )?third|two thirds)\b/g;

const numericKinds = new Set<FactKind>(['duration', 'money', 'percentage', 'number', 'date']);
const textualKinds = new Set<FactKind>(['section', 'id', 'condition']);
const isWordChar = (c: string | undefined) => c !== undefined && /[a-z0-9]/.test(c);

/** `needle` in `hay` as a whole token: "7.3" is in `"section_id": "7.3"` but not in "17.3". */
function containsToken(hay: string, needle: string): boolean {
  if (!needle) return false;
  for (let i = hay.indexOf(needle); i !== -1; i = hay.indexOf(needle, i + 1)) {
    const before = hay[i - 1];
    const after = hay[i + needle.length];
    if (!isWordChar(before) && before !== '.' && !isWordChar(after) && !(after === '.' && isWordChar(hay[i + needle.length + 1]))) return true;
  }
  return false;
}

function survives(fact: Fact, index: IntermediateIndex): boolean {
  if (index.keys.has(factKey(fact))) return true;
  // A figure restated without its unit ({"appeal_days": 180}) still carries the fact; a bare
  // year still carries "in 2001". Full dates have no single value and must match as dates.
  if (numericKinds.has(fact.kind) && fact.value !== undefined && index.bare.has(fact.value)) return true;
  return textualKinds.has(fact.kind) && containsToken(index.loose, looseForm(fact.normalized));
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

function lineOf(starts: number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] as number) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

const emptyByKind = (): Record<FactKind, { total: number; dropped: number }> =>
  Object.fromEntries(FACT_KINDS.map((k) => [k, { total: 0, dropped: 0 }])) as Record<FactKind, { total: number; dropped: number }>;

/**
 * Which facts of each source survived into the intermediate. Repeated facts are one entry
 * with several occurrences, so a statute that says "60-day period" four times counts once.
 *
 * @example
 * factSurvival([{ name: 'document', text: 'Appeal within 180 calendar days.' }], 'File promptly.')
 * // → facts: [{ kind: 'duration', normalized: '180 day', survived: false, line: 1, … }]
 */
export function factSurvival(sources: readonly { name: string; text: string }[], intermediate: unknown): SurvivalReport {
  const index = indexIntermediate(intermediate);
  const facts: SurvivalFact[] = [];
  for (const source of sources) {
    const starts = lineStarts(source.text);
    const byKey = new Map<string, SurvivalFact>();
    for (const fact of extractFacts(source.text)) {
      const occurrence = { start: fact.start, end: fact.end, line: lineOf(starts, fact.start) };
      const key = factKey(fact);
      const seen = byKey.get(key);
      if (seen) {
        seen.occurrences.push(occurrence);
        continue;
      }
      const entry: SurvivalFact = { ...fact, source: source.name, survived: survives(fact, index), line: occurrence.line, occurrences: [occurrence] };
      byKey.set(key, entry);
      facts.push(entry);
    }
  }
  const byKind = emptyByKind();
  for (const f of facts) {
    byKind[f.kind].total++;
    if (!f.survived) byKind[f.kind].dropped++;
  }
  return { facts, dropped: facts.filter((f) => !f.survived), survived: facts.filter((f) => f.survived), byKind };
}
