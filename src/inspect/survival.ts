import { splitSections } from '../steps/sections.ts';
import { extractFacts, factKey, FACT_KINDS, type Fact, type FactKind } from './facts.ts';
import { parseAmount } from './fact-patterns.ts';
import { findRestatement, indexQuantities, spelledNumbers, type QuantityIndex } from './restatements.ts';
import { TextCache } from '../text-cache.ts';
import { matchesOf } from './matches.ts';
import { boilerplateZones, isBoilerplate } from './boilerplate.ts';
import { extractClauses } from './clauses.ts';
import { clauseWords, indexClauses, judgeClause, type ClauseIndex } from './clause-survival.ts';

/** A condition clause (its `unit` names the clause type), as opposed to a named term. */
const isClause = (f: Fact) => f.kind === 'condition' && f.unit !== undefined;

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

/**
 * survived: found exactly or in an equivalent form (72 hours = three days, 50% = half);
 * approximated: only roughly ("two months" for 60 days, "about three months" for 90);
 * changed: the same figure with another unit or qualifier ("60 business days" for 60 days);
 * dropped: not found. Only "survived" counts as surviving.
 */
export type FactStatus = 'survived' | 'approximated' | 'changed' | 'dropped';

export interface SurvivalFact extends Fact {
  source: string;
  /** The section of the source the fact sits in (its id from the section parser), part of its identity. */
  section: string;
  survived: boolean;
  status: FactStatus;
  /** For an approximated or changed fact, what the intermediate says instead ("about three months"). */
  restatedAs?: string;
  /** 1-based line of the first occurrence (the one `start`/`end` point at). */
  line: number;
  /** Every occurrence of this fact: the same value again in the same sentence of the same section. */
  occurrences: Occurrence[];
  /** For a condition clause: its content words the intermediate says too (stemmed), the evidence for its status. */
  matchedWords?: string[];
}

export interface SurvivalReport {
  /** One entry per distinct fact per source, in source order. */
  facts: SurvivalFact[];
  dropped: SurvivalFact[];
  survived: SurvivalFact[];
  byKind: Record<FactKind, { total: number; dropped: number }>;
  /** Facts about the document itself (source notes, years in headings, code citations), set aside and counted nowhere else. */
  boilerplate: number;
}

/** What the intermediate contains, indexed once so each source fact is a Set lookup. */
interface IntermediateIndex {
  keys: Set<string>;
  /** For each fact key (and bare number), the words around each of its occurrences: which source place it restates. */
  contexts: Map<string, Set<string>[]>;
  /** Numbers standing alone (JSON number leaves, unit-less numbers in text): a figure kept without its unit still survived. */
  bare: Set<number>;
  /** All string content, lowercased, dashes and spaces normalised, for containment of ids, sections and terms. */
  loose: string;
  /** Every quantity and date the intermediate states, exactly or roughly, for approximations and changes (worked out when a fact is dropped). */
  quantities(): QuantityIndex;
  /** The intermediate's sentences by content word, for condition clauses (worked out when the source has one). */
  clauses(): ClauseIndex;
}

const looseForm = (s: string) => s.toLowerCase().replace(/[–—]/g, '-').replace(/[“”]/g, '"').replace(/\s+/g, ' ');

/** Walks a JSON intermediate leaf by leaf: stringifying it would glue "\n" escapes onto words. Numbers keep the words of their key path. */
function collectLeaves(value: unknown, strings: string[], numbers: { value: number; path: string[] }[], path: string[] = [], depth = 0): void {
  if (depth > 64) return;
  if (typeof value === 'string') strings.push(value);
  else if (typeof value === 'number' && Number.isFinite(value)) numbers.push({ value, path });
  else if (Array.isArray(value)) for (const v of value) collectLeaves(v, strings, numbers, path, depth + 1);
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) collectLeaves(v, strings, numbers, [...path.slice(-3), k], depth + 1);
}

const addContext = (contexts: Map<string, Set<string>[]>, key: string, words: Set<string>) => {
  const list = contexts.get(key);
  if (list) list.push(words);
  else contexts.set(key, [words]);
};

function indexIntermediate(intermediate: unknown): IntermediateIndex {
  const strings: string[] = [];
  const numbers: { value: number; path: string[] }[] = [];
  collectLeaves(intermediate, strings, numbers);
  const keys = new Set<string>();
  const contexts = new Map<string, Set<string>[]>();
  const bare = new Set<number>();
  for (const n of numbers) {
    keys.add(`number:${n.value}`);
    bare.add(n.value);
    addContext(contexts, `bare:${n.value}`, contextWords(n.path.join(' ').replace(/[_-]/g, ' ')));
  }
  // One pass over all leaves. NUL is neither whitespace nor a word character to any pattern,
  // so no fact can span two leaves ("within 180" | "days later" stays two fragments).
  const joined = strings.join('\u0000');
  for (const fact of extractFacts(joined)) {
    const key = factKey(fact);
    keys.add(key);
    const words = contextWords(sentenceAround(joined, fact.start, fact.end, 0, joined.length));
    addContext(contexts, key, words);
    if (fact.kind === 'number' && fact.value !== undefined && !fact.unit) {
      bare.add(fact.value);
      addContext(contexts, `bare:${fact.value}`, words);
    }
  }
  // A number spelled out ("fifty product types", "one complete copy") is a figure, but only for
  // the place whose words it shares: "one" is too common to stand for every 1 on its own.
  for (const n of spelledNumbers(joined)) {
    addContext(contexts, `spelled:${n.value}`, contextWords(sentenceAround(joined, n.start, n.end, 0, joined.length)));
  }
  const loose = looseForm(strings.join('\n'));
  // A share restated in words ("covered at half the cost") keeps the percentage it names.
  for (const m of matchesOf(shareWordsRe, loose)) {
    const share = shareWords[(m[1] ?? '').replace(/^(?:a|one)\s+/, '')];
    if (share !== undefined) keys.add(`percentage:${share}%`);
  }
  let quantities: QuantityIndex | undefined;
  let clauses: ClauseIndex | undefined;
  return { keys, contexts, bare, loose, quantities: () => (quantities ??= indexQuantities(joined)), clauses: () => (clauses ??= indexClauses(joined)) };
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

const stopWords = new Set('the a an and or of to in on at by for with from within after before is are be been was were that this these those it its as any each per may must shall will not no than then their they you your our'.split(' '));

/** The content words of a passage (lowercased, no figures, spelled or not, no stop words): what a sentence is about. */
function contextWords(text: string): Set<string> {
  const words = new Set<string>();
  for (const m of matchesOf(/[a-z][a-z'’]{2,}/g, text.toLowerCase())) {
    const w = m[0].replace(/['’]s$/, '').replace(/(?:ing|ed|es|s)$/, '');
    if (w.length >= 3 && !stopWords.has(m[0]) && parseAmount(m[0]) === undefined) words.add(w);
  }
  return words;
}

// NUL joins the intermediate's leaves, so a leaf ends a sentence too.
const sentenceEnd = new Set(['.', '!', '?', '\n', '\u0000']);

/** The sentence around [start, end) inside [from, to): up to the nearest . ! ? line break or leaf boundary, at most 300 characters each way. */
function sentenceSpan(text: string, start: number, end: number, from: number, to: number): { text: string; start: number } {
  let a = start;
  while (a > from && start - a < 300 && !(sentenceEnd.has(text[a - 1] ?? '') && !wrapped(text, a - 1))) a--;
  let b = end;
  while (b < to && b - end < 300 && !(sentenceEnd.has(text[b] ?? '') && (text[b] !== '.' || /\s/.test(text[b + 1] ?? ' ')) && !wrapped(text, b))) b++;
  return { text: text.slice(a, b), start: a };
}

/**
 * A line break inside a sentence of text wrapped at a fixed width: the next line goes on in lower
 * case ("…required by Section 3(a)(1)(A) to the extent\n   reasonably practicable"), as the clause
 * extractor reads it (clauses.ts). A new sentence, heading or list item opens with a capital, a
 * figure or a mark. Without it a wrapped licence's places were lines, not sentences: a rule's
 * condition and its limit on the next line were two places, and either one kept was a complete answer.
 */
const wrapped = (text: string, at: number) => text[at] === '\n' && /^[ \t]*[a-z]/.test(text.slice(at + 1, at + 40));

/** A sentence that opens by pointing back ("This has to be done even when…", "Doing so will not…") goes on with the rule before it. */
const pointsBackRe = /^[\s*•-]*(?:this|that|these|those|such|it|doing so)\b(?!\s+(?:section|paragraph|clause|article|part|policy|agreement|license|licence|handbook|document)\b)/i;

/**
 * Where a source's rule is said: its sentence, and the sentence before it when this one points
 * back to it ("…by locating their user id via email. This has to be done even when the user
 * already provides the user id."): the condition of the second qualifies the rule of the first,
 * so the two are one place, and keeping the first without the second is no complete answer.
 */
function ruleSpan(text: string, start: number, end: number, from: number, to: number): { text: string; start: number } {
  const own = sentenceSpan(text, start, end, from, to);
  if (!pointsBackRe.test(own.text) || own.start <= from) return own;
  let before = own.start - 1;
  while (before > from && /\s/.test(text[before] ?? '')) before--;
  if (before <= from || text[before] === '\n') return own;
  const previous = sentenceSpan(text, before, before, from, to);
  return { text: text.slice(previous.start, own.start + own.text.length), start: previous.start };
}

const sentenceAround = (text: string, start: number, end: number, from: number, to: number) => sentenceSpan(text, start, end, from, to).text;

const overlap = (a: Set<string>, b: Set<string>) => {
  let n = 0;
  for (const w of a) if (b.has(w)) n++;
  return n;
};

function survives(fact: Fact, index: IntermediateIndex, words: Set<string>): boolean {
  if (index.keys.has(factKey(fact))) return true;
  if (fact.kind === 'number' && fact.value !== undefined && (index.contexts.get(`spelled:${fact.value}`) ?? []).some((w) => overlap(w, words) > 0)) return true;
  // A figure restated without its unit ({"appeal_days": 180}) still carries the fact; a bare
  // year still carries "in 2001". Full dates have no single value and must match as dates.
  if (numericKinds.has(fact.kind) && fact.value !== undefined && index.bare.has(fact.value)) return true;
  return textualKinds.has(fact.kind) && containsToken(index.loose, looseForm(fact.normalized));
}

/** The id of the enclosing section: "(a)(3)(C)" for "(a)(3)(C)(ii)", "7.2" for "7.2.1"; "" at the top. */
function parentId(id: string): string {
  const paren = /^(.*)\([^()]*\)$/.exec(id);
  if (paren && paren[1]) return paren[1];
  const dotted = /^(.+)\.[^.]+$/.exec(id);
  return dotted?.[1] ?? '';
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** The last index whose start is at or before `offset` (starts ascending). */
function indexAt(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] as number) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

const lineOf = (starts: readonly number[], offset: number) => indexAt(starts, offset) + 1;

/** Where a fact is stated, in words: the sentence, where it starts, the headings of its section and of the sections that section is part of, and where the fact is. */
export interface FactPlace {
  sentence: string;
  sentenceStart: number;
  heading: string;
  at: number;
}

/** Where each fact sits (a named term: each place it is used, up to MAX_PLACES). Read by the relevance ranking. */
const placeOf = new WeakMap<SurvivalFact, FactPlace[]>();
const MAX_PLACES = 12;

/** The places of a fact found by `factSurvival` (undefined for a fact made elsewhere, e.g. structured-cloned). */
export function factPlaces(fact: SurvivalFact): readonly FactPlace[] | undefined {
  return placeOf.get(fact);
}

const emptyByKind = (): Record<FactKind, { total: number; dropped: number }> =>
  Object.fromEntries(FACT_KINDS.map((k) => [k, { total: 0, dropped: 0 }])) as Record<FactKind, { total: number; dropped: number }>;

/** A fact of a source at its place, with what does not depend on the intermediate worked out once. */
interface PreparedPlace {
  fact: Fact;
  key: string;
  section: string;
  /** The words around it (its sentence and section heading) that say what it is about. */
  words: Set<string>;
  occurrences: Occurrence[];
  places: FactPlace[];
  /** For a condition clause: the words of its own clause, from the last clause break before it to its end. */
  local?: string;
  /** For a condition clause: the content words it must keep (clause-survival.ts). */
  clauseWords?: string[];
  /** For a condition clause: an exception follows it in its sentence ("No … shall be appealed unless …"). */
  excepted?: boolean;
  /** For a clause cut at "or"/"and": the content words up to its clause break, judged when its own fall short. */
  reachWords?: string[];
}

/**
 * A source's facts grouped by place, remembered per text: an eval checks the same document (and
 * the same gold facts) at every boundary of every item and variant, and this part of the work
 * depends on the source alone. Bounded, least recently used out first. The prepared places are
 * never handed out: each report copies what it mutates.
 */
/** At most 32 sources and 8 M characters of them: a few large documents, not 32 of them. */
const prepared = new TextCache<PreparedSource>({ texts: 32, chars: 8_000_000 });

interface PreparedSource {
  places: PreparedPlace[];
  /** How many facts were boilerplate (see boilerplate.ts). */
  boilerplate: number;
}

function preparedSource(text: string): PreparedSource {
  const known = prepared.get(text);
  if (known) return known;
  const starts = lineStarts(text);
  const sections = splitSections(text);
  const sectionStarts = sections.map((section) => section.start);
  const sectionAt = (offset: number) => sections[indexAt(sectionStarts, offset)];
  // "(a)(3)(C)(ii)" is part of "(a)(3)(C)", "(a)(3)" and "(a)"; "7.2.1" of "7.2" and "7": their headings describe it too.
  const headingById = new Map(sections.map((s) => [s.id, s.heading]));
  const headingCache = new Map<string, string>();
  const headingPath = (id: string): string => {
    let path = headingCache.get(id);
    if (path === undefined) {
      const parts: string[] = [];
      for (let cut = id; cut; cut = parentId(cut)) {
        const h = headingById.get(cut);
        if (h !== undefined) parts.unshift(h);
      }
      path = parts.join(' · ');
      headingCache.set(id, path);
    }
    return path;
  };
  // A fact is its value at its place: the same value in another sentence or section is another fact.
  const byPlace = new Map<string, PreparedPlace>();
  const out: PreparedPlace[] = [];
  const zones = boilerplateZones(text);
  let boilerplate = 0;
  const figures = extractFacts(text);
  // Condition clauses stop before any figure or named term, so spans never overlap.
  const all = [...figures, ...extractClauses(text, figures)].sort((a, b) => a.start - b.start);
  for (const fact of all) {
    if (isBoilerplate(fact, zones)) {
      boilerplate++;
      continue;
    }
    const occurrence = { start: fact.start, end: fact.end, line: lineOf(starts, fact.start) };
    const section = sectionAt(fact.start);
    const sentence = ruleSpan(text, fact.start, fact.end, section?.start ?? 0, section?.end ?? text.length);
    const key = factKey(fact);
    // Figures are facts of their place; a named term or id is one fact wherever it is used.
    const numeric = numericKinds.has(fact.kind) || isClause(fact);
    const place = numeric ? `${key}@${section?.id ?? ''}:${sentence.text}` : key;
    const here = { sentence: sentence.text, sentenceStart: sentence.start, heading: headingPath(section?.id ?? ''), at: fact.start };
    const seen = byPlace.get(place);
    if (seen) {
      seen.occurrences.push(occurrence);
      // A named term used again elsewhere is also about what is said there (capped: a term used
      // everywhere is about nothing in particular).
      if (seen.places.length < MAX_PLACES && !numeric) seen.places.push(here);
      continue;
    }
    // The section heading is context too ("Appeals" makes "within 30 days" an appeal deadline).
    const record: PreparedPlace = { fact, key, section: section?.id ?? '', words: contextWords(`${section?.heading ?? ''} ${sentence.text}`), occurrences: [occurrence], places: [here] };
    if (isClause(fact)) {
      const upTo = fact.end - sentence.start;
      const head = sentence.text.slice(0, fact.start - sentence.start);
      record.local = sentence.text.slice(Math.max(head.search(/[^,;:]*$/), 0), upTo);
      record.clauseWords = clauseWords(fact, record.local);
      record.excepted = /\b(?:unless|except)\b/i.test(sentence.text.slice(upTo));
      // A clause stops at "or"/"and", which may join two nouns of one clause ("a motion or
      // stipulation by the party … to waive"): what runs on to the clause break is its reach.
      const rest = sentence.text.slice(upTo);
      const reach = /^\s+(?:or|and)\s+[^,;:.()]*/.exec(rest);
      if (reach) record.reachWords = clauseWords({ ...fact, text: fact.text + reach[0] }, record.local + reach[0]);
    }
    byPlace.set(place, record);
    out.push(record);
  }
  return prepared.set(text, { places: out, boilerplate });
}

/**
 * Which facts of each source survived into the intermediate. A figure is a value at a place (its
 * section and sentence): "90 days of service" in 1.1 and "refunded within 90 calendar days" in
 * 7.2 are two facts, and an intermediate that keeps "90 days" in words about service keeps the
 * first only. The same value again in one sentence is one fact with several occurrences; a named
 * term, id or section reference is one fact wherever it is used.
 *
 * @example
 * factSurvival([{ name: 'document', text: 'Appeal within 180 calendar days.' }], 'File promptly.')
 * // → facts: [{ kind: 'duration', normalized: '180 day', survived: false, line: 1, … }]
 */
export function factSurvival(sources: readonly { name: string; text: string }[], intermediate: unknown): SurvivalReport {
  const index = indexIntermediate(intermediate);
  const facts = judgeFacts(sources, index, true);
  const boilerplate = sources.reduce((n, s) => n + preparedSource(s.text).boilerplate, 0);
  for (const f of facts) {
    if (f.survived) {
      f.status = 'survived';
      continue;
    }
    // A condition clause was judged by meaning already: survived, changed (its polarity flipped) or dropped.
    if (f.status === 'changed') continue;
    f.status = 'dropped';
    const found = findRestatement(f, index.quantities());
    if (found) {
      f.status = found.status;
      f.restatedAs = found.text;
    }
  }
  const byKind = emptyByKind();
  for (const f of facts) {
    byKind[f.kind].total++;
    if (!f.survived) byKind[f.kind].dropped++;
  }
  return { facts, dropped: facts.filter((f) => !f.survived), survived: facts.filter((f) => f.survived), byKind, boilerplate };
}

/**
 * Whether each fact of each source survived, judged exactly as `factSurvival` judges it, without
 * the report around it (restatements, places, tallies): what a scorer needs for every item.
 */
export function factsSurvived(sources: readonly { name: string; text: string }[], intermediate: unknown): { source: string; survived: boolean }[] {
  return judgeFacts(sources, indexIntermediate(intermediate), false);
}

/**
 * A prepared place as a report entry. Written out field by field: spreading the facts (whose
 * shapes differ: a value, a unit or neither) sent V8 to its slow generic copy, which was the
 * largest single cost of scoring an item.
 */
function asEntry(place: PreparedPlace, source: string, survived: boolean, full: boolean): SurvivalFact {
  const f = place.fact;
  const entry: SurvivalFact = { kind: f.kind, text: f.text, start: f.start, end: f.end, normalized: f.normalized, source, section: place.section, survived, status: survived ? 'survived' : 'dropped', line: place.occurrences[0]?.line ?? 1, occurrences: full ? place.occurrences.map((o) => ({ ...o })) : [] };
  if (f.value !== undefined) entry.value = f.value;
  if (f.unit !== undefined) entry.unit = f.unit;
  return entry;
}

/** Each source fact at its place, with whether it survived; `full` also copies its occurrences and records its places. */
function judgeFacts(sources: readonly { name: string; text: string }[], index: IntermediateIndex, full: boolean): SurvivalFact[] {
  const facts: SurvivalFact[] = [];
  for (const source of sources) {
    const placesOfKey = new Map<string, { entry: SurvivalFact; words: Set<string> }[]>();
    for (const place of preparedSource(source.text).places) {
      let clause = isClause(place.fact) ? judgeClause(place.fact, place.clauseWords ?? [], index.clauses(), place.local ?? place.fact.text, place.excepted) : null;
      if (clause?.status === 'dropped' && place.reachWords) {
        const reach = judgeClause(place.fact, place.reachWords, index.clauses(), place.local ?? place.fact.text, place.excepted);
        if (reach.status !== 'dropped') clause = reach;
      }
      const kept = clause ? clause.status === 'survived' : survives(place.fact, index, place.words);
      const entry = asEntry(place, source.name, kept, full);
      if (clause) {
        entry.matchedWords = clause.matched;
        if (clause.status === 'changed') {
          entry.status = 'changed';
          entry.restatedAs = clause.restatedAs ?? '';
        }
      }
      if (full) placeOf.set(entry, place.places.map((p) => ({ ...p })));
      const record = { entry, words: place.words };
      const list = placesOfKey.get(place.key);
      if (list) list.push(record);
      else placesOfKey.set(place.key, [record]);
      facts.push(entry);
    }
    // A value found once in the intermediate but at several places in the source restates the
    // place whose words it shares most; the other places did not survive through it.
    for (const [key, places] of placesOfKey) {
      if (places.length < 2 || !places.some((p) => p.entry.survived)) continue;
      const first = places[0]?.entry as SurvivalFact;
      const found = [...(index.contexts.get(key) ?? []), ...(first.value !== undefined && numericKinds.has(first.kind) ? index.contexts.get(`bare:${first.value}`) ?? [] : [])];
      if (found.length === 0) continue;
      const supported = new Set<{ entry: SurvivalFact; words: Set<string> }>();
      for (const words of found) {
        const scores = places.map((p) => overlap(words, p.words));
        const best = Math.max(...scores);
        // Words in common pick the place; a figure with no words around it could be any of them.
        places.forEach((p, i) => {
          if (best === 0 || scores[i] === best) supported.add(p);
        });
      }
      for (const p of places) if (!supported.has(p)) p.entry.survived = false;
    }
  }
  return facts;
}
