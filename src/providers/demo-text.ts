/**
 * Text helpers for the offline demo model: tokens, crude stems, sentence spans and the
 * duration patterns. The demo model is extractive, so every span it returns must stay a
 * verbatim slice of the prompt: nothing here rewrites whitespace inside a sentence.
 */

import { TextCache } from '../text-cache.ts';

const stopwords = new Set(
  ('a an and any are as at be been but by can could did do does for from had has have how i if in into is it its ' +
    'may me might must my no not of on or our over shall should so such than that the their them then there these ' +
    'they this those to under until upon us was we were what when where which while who whom why will with would ' +
    'you your many much get got also only other same each about after before within without between')
    .split(' '),
);

export function isStopword(word: string): boolean {
  return stopwords.has(word.toLowerCase());
}

/** Strips common English suffixes and truncates, so "denied"/"denial" and "days"/"day" meet. */
export function stem(word: string): string {
  let w = word.toLowerCase();
  for (const suffix of ['ations', 'ation', 'ings', 'ing', 'ied', 'ies', 'ial', 'ed', 'es', 'al', 's']) {
    if (w.length - suffix.length >= 3 && w.endsWith(suffix)) {
      w = w.slice(0, -suffix.length);
      break;
    }
  }
  return w.slice(0, 7);
}

/**
 * A bounded memo for the demo model's pure per-text work. The model reads the whole prompt on
 * every call, and in an eval that prompt holds the same document for every item and variant:
 * its sentences are analysed once, not once per call. Least recently used out first.
 */
function memo<T>(compute: (text: string) => T): (text: string) => T {
  const known = new TextCache<T>({ texts: 20_000, chars: 8_000_000 });
  return (text) => known.get(text) ?? known.set(text, compute(text));
}

/** Content stems of a text, stopwords removed; digits kept (they are what questions ask for). Shared: never changed by a caller. */
export const contentStems: (text: string) => readonly string[] = memo((text) => {
  const out: string[] = [];
  for (const m of text.toLowerCase().matchAll(/[a-z0-9]+/g)) {
    const word = m[0];
    if (stopwords.has(word) || (word.length < 2 && !/\d/.test(word))) continue;
    out.push(stem(word));
  }
  return out;
});

const counted = new WeakMap<readonly string[], ReadonlyMap<string, number>>();

/** How often each stem occurs in `stems` (one of contentStems' lists), worked out once per list. */
export function stemCounts(stems: readonly string[]): ReadonlyMap<string, number> {
  let counts = counted.get(stems);
  if (!counts) {
    const made = new Map<string, number>();
    for (const t of stems) made.set(t, (made.get(t) ?? 0) + 1);
    counted.set(stems, (counts = made));
  }
  return counts;
}

const unit = '(?:calendar |business |working )?(?:days?|hours?|weeks?|months?|years?)';
const spelled = '(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fourteen|fifteen|twenty|thirty|forty-five|sixty|ninety)';
/** A duration as written: "180-day period", "72 hours", "three years", "60 calendar days". */
export const durationPattern = new RegExp(
  `\\b(\\d+|${spelled})(?:-(day|hour|week|month|year)(?: period)?|\\s+(${unit}))\\b`,
  'gi',
);

export interface DurationMatch {
  /** The exact text matched, e.g. "180-day period". */
  text: string;
  index: number;
  amount: string;
  /** Singular unit: day, hour, week, month, year. */
  unit: string;
  /** "180 days" */
  spoken: string;
}

/** The durations a text states, in order. Shared: never changed by a caller. */
export const findDurations: (text: string) => readonly DurationMatch[] = memo((text) => {
  const out: DurationMatch[] = [];
  for (const m of text.matchAll(durationPattern)) {
    const amount = m[1] ?? '';
    const rawUnit = (m[2] ?? m[3] ?? '').toLowerCase();
    const unitWord = /(day|hour|week|month|year)/.exec(rawUnit)?.[1] ?? 'day';
    const qualifier = /^(calendar|business|working) /.exec(rawUnit)?.[1];
    const plural = amount === '1' || amount.toLowerCase() === 'one' ? unitWord : `${unitWord}s`;
    out.push({ text: m[0], index: m.index ?? 0, amount, unit: unitWord, spoken: `${amount} ${qualifier ? `${qualifier} ` : ''}${plural}` });
  }
  return out;
});

/** Sentence spans of one paragraph, as [start, end) offsets into it (verbatim slices). */
export function sentenceSpans(paragraph: string): [number, number][] {
  const spans: [number, number][] = [];
  // A boundary is terminal punctuation, whitespace, then something that starts a sentence.
  const boundary = /[.;!?…](?=\s+[A-Z(“"'])/g;
  let start = 0;
  for (const m of paragraph.matchAll(boundary)) {
    const end = (m.index ?? 0) + 1;
    // "U.S." and single-letter initials are not sentence ends.
    if (/\b[A-Z]\.$/.test(paragraph.slice(Math.max(0, end - 3), end))) continue;
    spans.push([start, end]);
    start = end;
  }
  spans.push([start, paragraph.length]);
  return spans
    .map(([s, e]): [number, number] => {
      while (s < e && /\s/.test(paragraph[s] ?? '')) s++;
      while (e > s && /\s/.test(paragraph[e - 1] ?? '')) e--;
      return [s, e];
    })
    .filter(([s, e]) => e > s);
}

/**
 * Cuts text to at most `max` characters at a word boundary. The result is a prefix of the
 * input, so a cut quote is still verbatim.
 */
export function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const slice = text.slice(0, max);
  const lastSpace = slice.search(/\s\S*$/);
  const cut = lastSpace > 0 ? slice.slice(0, lastSpace) : slice;
  return cut.replace(/[\s,;:(–-]+$/, '');
}

/**
 * The longest verbatim window of `sentence` no longer than `max` that still contains the
 * characters [focusStart, focusEnd): it starts at a clause boundary before the focus when
 * the whole sentence does not fit.
 */
export function fitAround(sentence: string, max: number, focusStart: number, focusEnd: number): string {
  if (sentence.length <= max) return sentence;
  const starts = [0];
  for (const m of sentence.matchAll(/[,;:]\s+/g)) starts.push((m.index ?? 0) + m[0].length);
  for (const m of sentence.matchAll(/\s+/g)) starts.push((m.index ?? 0) + m[0].length);
  // Clause boundaries first (they read better), then any word boundary, nearest the start.
  for (const start of starts) {
    if (start > focusStart) continue;
    const window = cutAtWord(sentence.slice(start), max);
    if (start + window.length >= focusEnd) return window;
  }
  return cutAtWord(sentence.slice(focusStart), max);
}

/**
 * Rewrites every duration and figure into vague words. This is the demo's model of what a
 * general-purpose summary does to a policy: it keeps the shape ("a deadline exists") and
 * drops the numbers that only one question needs.
 */
export function vagueify(text: string): string {
  const u = '(?:calendar |business |working )?(?:days?|hours?|weeks?|months?|years?)';
  const n = `(?:\\d+|${spelled})`;
  const rules: [RegExp, string][] = [
    [new RegExp(`(?:by )?not later than (?:the end of )?(?:the|such) ${n}-(?:day|hour|week|month|year) period beginning on the date(?: on which| that)?`, 'gi'), 'promptly after'],
    [new RegExp(`(?:by )?not later than ${n} ${u} after(?: the date(?: on which| that| of)?)?`, 'gi'), 'promptly after'],
    [new RegExp(`within ${n} ${u} (?:after|of|from)(?: the date(?: on which| that| of)?)?`, 'gi'), 'promptly after'],
    [new RegExp(`within ${n} ${u}`, 'gi'), 'within the required time'],
    [new RegExp(`(?:not less (?:frequently|often) than )?every ${n} ${u}`, 'gi'), 'periodically'],
    [new RegExp(`\\(?not to exceed ${n} ${u}\\)?`, 'gi'), 'for a limited time'],
    [new RegExp(`(?:the |such |a |an )?${n}-(?:day|hour|week|month|year) period`, 'gi'), 'the required period'],
    [new RegExp(`(?:an? |the )?(?:initial )?term of ${n} ${u}`, 'gi'), 'a fixed term'],
    [new RegExp(`${n}-(?:day|hour|week|month|year)`, 'gi'), 'set'],
    [new RegExp(`${n} ${u}`, 'gi'), 'a set time'],
    [/\$[\d,]+(?:\.\d+)?/g, 'a set amount'],
    [/\b(?:January|February|March|April|May|June|July|August|September|October|November|December) \d{1,2}, \d{4}\b/g, 'a set date'],
    [/\b(?:19|20)\d\d\b/g, 'a set year'],
    [/\b\d+(?:\.\d+)?%/g, 'a set share'],
  ];
  let out = text;
  for (const [pattern, replacement] of rules) out = out.replace(pattern, replacement);
  // Any other figure goes vague; a clause number ("see 4.1", "§ 7.2") is a place, not a figure.
  return out.replace(/\b\d+(?:\.\d+)+\b|\b\d[\d,]*\b/g, (m) => (m.includes('.') ? m : 'several'));
}

/** Cross-references a plain-language summary leaves out ("under subsection (a)(3)"). */
export function dropCrossReferences(text: string): string {
  const enumerators = '(?:\\([A-Za-z0-9]+\\))+';
  const target = `(?:${enumerators}|[0-9][0-9A-Za-z–-]*${enumerators}?)`;
  return text
    .replace(new RegExp(`,?\\s*(?:as )?(?:described |referred to |provided )?(?:under|in|of|pursuant to|by) (?:sub)?(?:section|paragraph|clause|subparagraph)s? ${target}(?:(?:,| and| or)+ ${target})*(?: of this (?:title|section|subchapter))?`, 'g'), '')
    .replace(new RegExp(`\\s*(?:sub)?(?:section|paragraph|clause|subparagraph)s? ${target}(?: of this (?:title|section|subchapter))?`, 'g'), '')
    .replace(/\s*of this title\b/g, '')
    .replace(/\s*\((?:[^()]|\([^()]*\))*\)/g, '')
    .replace(/\s+([,.;])/g, '$1')
    .replace(/\s{2,}/g, ' ')
    .trim();
}
