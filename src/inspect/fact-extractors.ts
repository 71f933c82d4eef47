import {
  clauseNumberRe, conditionRe, countLimitRe, digitsInParensRe, quotedLiteralRe, spelledLeftRe, curatedConditions, dateRes, definedTermRe, durationLeftRe, durationUnitRe, idRes, monthDateRe,
  monthIndex, moneyPrefixRe, moneySuffixRe, numberRe, ordinalLeftRe, parenChainRe, parseAmount, percentLeftRe, percentMarkerRe,
  refRe, sectionRe, structuralBefore, unitStems, yearContextRe, yearRe,
} from './fact-patterns.ts';
import type { FactKind } from './facts.ts';
import { matchesOf } from './matches.ts';
import { codeCitationRe } from './boilerplate.ts';

/**
 * One extractor per fact kind. Each reads the text (and its lowercase twin, same offsets,
 * for indexOf scans) and emits spans; `extractFacts` settles overlaps by extractor order.
 */
export type Emit = (kind: FactKind, start: number, end: number, normalized: string, value?: number, unit?: string) => void;
export type Extractor = (text: string, lower: string, emit: Emit) => void;

const fmt = (n: number) => String(Math.round(n * 100) / 100);
const pad = (n: number | string) => String(n).padStart(2, '0');

/** Every index of `needle` in `hay`: a Boyer-Moore scan, far cheaper than a regex alternation. */
function indexesOf(hay: string, needle: string): number[] {
  const found: number[] = [];
  for (let i = hay.indexOf(needle); i !== -1; i = hay.indexOf(needle, i + needle.length)) found.push(i);
  return found;
}

const leftWindow = 80;
// "calendar" adds nothing; business days are a different length of time.
const unitOf = (qualifier: string | undefined, unit: string) => (qualifier === 'business' || qualifier === 'working' ? `business ${unit}` : unit);

const rateTailRe = /^\s+(?:a|an|per|each|every)\s+(?:day|week|month|year|fortnight)\b/i;

export const durations: Extractor = (text, lower, emit) => {
  for (const stem of unitStems) {
    for (const at of indexesOf(lower, stem)) {
      if (!/[\s\-–]/.test(text[at - 1] ?? '')) continue;
      durationUnitRe.lastIndex = at;
      const tail = durationUnitRe.exec(text);
      if (!tail) continue;
      const end = at + tail[0].length;
      // "30 hours a week" is a rate (how much per period), not a length of time.
      if (rateTailRe.test(text.slice(end, end + 16))) continue;
      const from = Math.max(0, at - leftWindow);
      const left = text.slice(from, at);
      const m = durationLeftRe.exec(left);
      if (m) {
        const unit = unitOf(m[3]?.toLowerCase(), stem);
        const first = parseAmount(m[1]!);
        if (m[2] !== undefined) {
          // A range names two facts: "5 to 7 business days" is 5 and 7 business days.
          const second = parseAmount(m[2]);
          if (first !== undefined) emit('duration', from + m.index, from + m.indices![1]![1], `${fmt(first)} ${unit}`, first, unit);
          if (second !== undefined) emit('duration', from + m.indices![2]![0], end, `${fmt(second)} ${unit}`, second, unit);
        } else if (first !== undefined) emit('duration', from + m.index, end, `${fmt(first)} ${unit}`, first, unit);
        continue;
      }
      const ordinal = ordinalLeftRe.exec(left);
      if (ordinal) {
        const value = Number(ordinal[1]);
        const unit = unitOf(ordinal[2]?.toLowerCase(), stem);
        emit('duration', from + ordinal.index, end, `${value} ${unit}`, value, unit);
      }
    }
  }
};

const scaleOf: Record<string, number> = { thousand: 1e3, k: 1e3, million: 1e6, mn: 1e6, m: 1e6, billion: 1e9, bn: 1e9, b: 1e9 };
const currencyOf = (marker: string): string => (/€|EUR|euro/i.test(marker) ? '€' : /£|GBP/i.test(marker) ? '£' : '$');

export const money: Extractor = (text, _lower, emit) => {
  for (const m of matchesOf(moneyPrefixRe, text)) {
    const value = Number(m[2]!.replace(/,/g, '')) * (m[3] ? (scaleOf[m[3].toLowerCase()] ?? 1) : 1);
    const symbol = currencyOf(m[1]!);
    emit('money', m.index, m.index + m[0].length, `${symbol}${fmt(value)}`, value, symbol);
  }
  for (const m of matchesOf(moneySuffixRe, text)) {
    let value = Number(m[1]!.replace(/,/g, '')) * (m[2] ? (scaleOf[m[2].toLowerCase()] ?? 1) : 1);
    if (m[3]!.toLowerCase() === 'cents') value /= 100;
    const symbol = currencyOf(m[3]!);
    emit('money', m.index, m.index + m[0].length, `${symbol}${fmt(value)}`, value, symbol);
  }
};

export const percentages: Extractor = (text, lower, emit) => {
  for (const at of [...indexesOf(lower, '%'), ...indexesOf(lower, 'percent'), ...indexesOf(lower, 'per cent')]) {
    percentMarkerRe.lastIndex = at;
    const marker = percentMarkerRe.exec(text);
    if (!marker) continue;
    const from = Math.max(0, at - leftWindow);
    const m = percentLeftRe.exec(text.slice(from, at));
    const value = m ? parseAmount(m[1]!) : undefined;
    if (m && value !== undefined) emit('percentage', from + m.index, at + marker[0].length, `${fmt(value)}%`, value, 'percent');
  }
};

export const dates: Extractor = (text, _lower, emit) => {
  // Day-first dates before month-led ones, or "30 December 2016" would lose its day to "December 2016".
  for (const { re, order } of dateRes) {
    for (const m of matchesOf(re, text)) {
      const normalized = order === 'dmy' ? `${m[3]}-${pad(monthIndex(m[2]!))}-${pad(m[1]!)}`
        : order === 'iso' ? `${m[1]}-${m[2]}-${m[3]}`
          : `${m[3]}-${pad(m[1]!)}-${pad(m[2]!)}`; // slashes in US order, as the corpus writes them
      emit('date', m.index, m.index + m[0].length, normalized);
    }
  }
  for (const m of matchesOf(monthDateRe, text)) {
    const month = pad(monthIndex(m[1]!));
    const normalized = m[4] ? `${m[4]}-${month}` : m[3] ? `${m[3]}-${month}-${pad(m[2]!)}` : `--${month}-${pad(m[2]!)}`;
    emit('date', m.index, m.index + m[0].length, normalized);
  }
  for (const m of matchesOf(yearRe, text)) {
    if (yearContextRe.test(text.slice(Math.max(0, m.index - 20), m.index))) emit('date', m.index, m.index + 4, m[0], Number(m[0]));
  }
};

/** A clause number counts only where it opens a line or follows a run of whitespace. */
function opensLine(text: string, at: number): boolean {
  if (/\s/.test(text[at - 1] ?? '') && /\s/.test(text[at - 2] ?? '')) return true;
  let i = at - 1;
  while (i >= 0 && ' \t#>*'.includes(text[i] as string)) i--;
  return i < 0 || text[i] === '\n';
}

const normalizeRef = (ref: string) => ref.replace(/[–—]/g, '-');

export const sections: Extractor = (text, _lower, emit) => {
  // "17 U.S.C. 105" is one reference, not the numbers 17 and 105 (boilerplate.ts sets it aside).
  for (const m of matchesOf(codeCitationRe, text)) emit('section', m.index, m.index + m[0].length, m[0].replace(/\s+/g, ' '));
  for (const m of matchesOf(sectionRe, text)) {
    const listStart = m.index + m[0].length - m[1]!.length;
    let first = true;
    for (const r of matchesOf(refRe, m[1]!)) {
      const s = listStart + r.index;
      // The first ref keeps its keyword in the span ("section 1395w–22"), for the highlight.
      emit('section', first ? m.index : s, s + r[0].length, normalizeRef(r[0]));
      first = false;
    }
  }
  for (const m of matchesOf(parenChainRe, text)) emit('section', m.index, m.index + m[0].length, m[0]);
  for (const m of matchesOf(clauseNumberRe, text)) if (opensLine(text, m.index)) emit('section', m.index, m.index + m[0].length, m[0]);
};

export const ids: Extractor = (text, _lower, emit) => {
  for (const { re, gate } of idRes) {
    if (gate && !gate.test(text)) continue;
    for (const m of matchesOf(re, text)) {
      const end = m.index + m[0].length;
      const start = m[1] !== undefined ? end - m[1].length : m.index;
      emit('id', start, end, text.slice(start, end).replace(/^#/, ''));
    }
  }
};

const isTermChar = (c: string | undefined) => c !== undefined && /[\w-]/.test(c);

export const conditions: Extractor = (text, lower, emit) => {
  for (const m of matchesOf(conditionRe, text)) {
    // The capture group that matched says which curated condition this is.
    let i = 1;
    while (i < m.length && m[i] === undefined) i++;
    emit('condition', m.index, m.index + m[0].length, curatedConditions[i - 1]?.[0] ?? m[0].toLowerCase());
  }
  // A quoted literal is a named value ('pending', 'no longer needed'): one fact wherever it is used.
  for (const m of matchesOf(quotedLiteralRe, text)) emit('condition', m.index, m.index + m[0].length, m[1]!.toLowerCase());
  const terms = new Set<string>();
  for (const m of matchesOf(definedTermRe, text)) {
    const term = (m[1] ?? m[2] ?? '').trim();
    // One-word terms ("Customer", "Term") are the parties and the document itself: everywhere, never dropped, pure noise.
    const words = term.split(/\s+/).length;
    if (words >= 2 && words <= 6) terms.add(term);
  }
  // A defined term is one fact however often it is used; its later uses are occurrences of it,
  // matched as defined (only the first letter may change case, at the start of a sentence).
  for (const term of [...terms].sort((a, b) => b.length - a.length)) {
    const rest = term.slice(1);
    const normalized = term.toLowerCase().replace(/\s+/g, ' ');
    for (const at of indexesOf(lower, term.toLowerCase())) {
      const end = at + term.length;
      if (isTermChar(text[at - 1]) || isTermChar(text[end]) || text.slice(at + 1, end) !== rest) continue;
      emit('condition', at, end, normalized);
    }
  }
};

/**
 * A bare "(1)", a "1." at the start of a line, a page number alone on its line,
 * "paragraph (2)", or an inline enumerator whose parentheses were lost in conversion
 * ("shall include  1 a detailed…"): structure, not a fact.
 */
function isListMarker(text: string, start: number, end: number, content: TextBounds): boolean {
  // A number that is the whole text (a JSON string leaf such as "1,500") is a value, never a marker.
  if (start <= content.first && end > content.last) return false;
  if (end - start <= 3 && text[start - 1] === '(' && text[end] === ')') return true;
  if (end - start <= 2 && /\s\s$/.test(text.slice(start - 2, start))) return true;
  // Only the last 8 characters before the number and the 200 after it are looked at: on text
  // without newlines a whole-text search per number made extraction quadratic (5 MB > 120 s).
  const before = text.slice(Math.max(0, start - 8), start);
  const lineStart = start - before.length + before.lastIndexOf('\n') + 1;
  if (start - lineStart < 8 && /^[\s#>*-]*$/.test(text.slice(lineStart, start))) {
    if (/^[.)]\s/.test(text.slice(end, end + 2))) return true;
    const after = text.slice(end, end + 200);
    const lineEnd = after.indexOf('\n');
    if (/^\s*$/.test(lineEnd === -1 ? after : after.slice(0, lineEnd))) return true;
  }
  return structuralBefore.test(text.slice(Math.max(0, start - 16), start));
}

/** Where a text's first and last non-space characters are (computed once per text, not per number). */
interface TextBounds {
  first: number;
  last: number;
}

function textBounds(text: string): TextBounds {
  const first = text.search(/\S/);
  let last = text.length - 1;
  while (last >= 0 && /\s/.test(text[last] as string)) last--;
  return { first: first === -1 ? text.length : first, last };
}

export const numbers: Extractor = (text, _lower, emit) => {
  // A limit makes a spelled count a figure ("at most five passengers"); a spelled number
  // confirmed by digits ("one (1) complete copy") makes the digits one.
  for (const m of matchesOf(countLimitRe, text)) {
    const value = parseAmount(m[1]!);
    const start = m.index + m[0].length - m[1]!.length;
    if (value !== undefined) emit('number', start, m.index + m[0].length, fmt(value), value);
  }
  for (const m of matchesOf(digitsInParensRe, text)) {
    const from = Math.max(0, m.index - 24);
    const left = spelledLeftRe.exec(text.slice(from, m.index));
    const value = Number(m[1]);
    if (!left || parseAmount(left[1]!) !== value) continue;
    emit('number', from + left.index, m.index + m[0].length, fmt(value), value);
  }
  const content = textBounds(text);
  for (const m of matchesOf(numberRe, text)) {
    const amountEnd = m.index + m[1]!.length;
    if (isListMarker(text, m.index, amountEnd, content)) continue;
    // A leading zero ("02116") makes it a code, not a quantity: keep it verbatim.
    if (/^0\d/.test(m[1]!)) {
      emit('id', m.index, amountEnd, m[1]!);
      continue;
    }
    const value = Number(m[1]!.replace(/,/g, ''));
    const rawUnit = (m[2] ?? m[3])?.toLowerCase();
    const unit = rawUnit === 'lbs' ? 'lb' : rawUnit && rawUnit.length > 3 && rawUnit.endsWith('s') && !rawUnit.endsWith('ss') ? rawUnit.slice(0, -1) : rawUnit;
    emit('number', m.index, m.index + m[0].length, unit ? `${fmt(value)} ${unit}` : fmt(value), value, unit);
  }
};
