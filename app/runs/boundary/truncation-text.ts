import { isRecord } from '../../../src/files/index.ts';
import type { TruncationRecord } from '../../../src/trace/index.ts';

/**
 * What a context budget cut, in units a person counts: "Given 5 chunks, read 3 in full and
 * part of the 4th". The binding's full text is the kept text plus the cut text; its units are
 * the elements of a JSON array, or the parts between `[chunk n]` / section markers.
 */
export interface UnitSpan {
  start: number;
  end: number;
  label: string;
}

export interface TruncationSummary {
  sentence: string;
  tokensCut: number;
  units: { total: number; full: number; partial: number; unread: string[] } | null;
}

const nf = (n: number) => n.toLocaleString('en-US');
const ordinal = (n: number) => {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th';
  return `${n}${suffix}`;
};

/** A label for one array element: its id and heading when it has them. */
function elementLabel(raw: string, index: number): string {
  try {
    const value: unknown = JSON.parse(raw);
    if (isRecord(value)) {
      const v = value;
      const id = [v.section_id, v.id, v.chunk_id, v.doc_id].find((x) => typeof x === 'string' || typeof x === 'number');
      const title = [v.heading, v.title, v.name].find((x) => typeof x === 'string');
      const parts = [id !== undefined ? String(id) : '', typeof title === 'string' ? `"${title.slice(0, 60)}"` : ''].filter(Boolean);
      if (parts.length) return parts.join(' ');
    }
  } catch {
    // A cut or non-JSON element is named by its position.
  }
  return `#${index + 1}`;
}

/** The top-level elements of a JSON array text, by a scan that respects strings and nesting. */
export function arrayElements(text: string): UnitSpan[] | null {
  const open = text.search(/\S/);
  if (open < 0 || text[open] !== '[') return null;
  const spans: UnitSpan[] = [];
  let depth = 0;
  let inString = false;
  let start = -1;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    if (c === '[' || c === '{') {
      if (depth === 1 && start < 0) start = i;
      depth++;
      continue;
    }
    if (c === ']' || c === '}') {
      depth--;
      if (depth === 0) {
        if (start >= 0) spans.push({ start, end: i, label: '' });
        break;
      }
      continue;
    }
    if (depth !== 1) continue;
    if (c === ',') {
      if (start >= 0) spans.push({ start, end: i, label: '' });
      start = -1;
    } else if (start < 0 && c !== undefined && !/\s/.test(c)) start = i;
  }
  // An array cut short (no closing bracket) still has the element that was being read.
  if (depth > 0 && start >= 0) spans.push({ start, end: text.length, label: '' });
  return spans.length ? spans.map((s, i) => ({ ...s, label: elementLabel(text.slice(s.start, s.end).trim(), i) })) : null;
}

const markerPattern = /^\s*\[(?:chunk|doc(?:ument)?|passage|source)\s*#?\s*(\d+)\]|^#{1,3}\s+\S|^(?:section|§)\s*\d/gim;

/** Units between markers: `[chunk 3]`, `[doc 2]`, Markdown headings, "Section 4"/"§ 4" lines. */
export function markedUnits(text: string): UnitSpan[] | null {
  const starts = [...text.matchAll(markerPattern)].map((m) => m.index ?? 0);
  if (starts.length < 2) return null;
  return starts.map((start, i) => {
    const end = starts[i + 1] ?? text.length;
    const line = text.slice(start, end).split('\n')[0]?.trim() ?? '';
    return { start, end, label: line.length > 60 ? `${line.slice(0, 59)}…` : line };
  });
}

function isJsonArray(text: string): boolean {
  try {
    return Array.isArray(JSON.parse(text));
  } catch {
    return false;
  }
}

function unitNoun(binding: string, byMarkers: boolean, text: string): string {
  if (/chunk/i.test(binding) || (byMarkers && /\[chunk/i.test(text))) return 'chunk';
  if (/section/i.test(binding)) return 'section';
  if (/doc/i.test(binding)) return 'document';
  if (/passage/i.test(binding)) return 'passage';
  return 'item';
}

/**
 * @example
 * summariseTruncation(record, keptText)
 * // → "Given 5 chunks, read 3 in full and part of the 4th: the budget of 4,000 tokens cut
 * //    1,144 tokens from the end of {chunks}. Not read at all: s9 "Manage Account"."
 */
export function summariseTruncation(t: TruncationRecord, keptText: string | undefined): TruncationSummary {
  const tokensCut = Math.max(0, t.bindingTokensBefore - t.bindingTokensKept);
  const where = `the ${t.from === 'end' ? 'end' : 'start'} of {${t.binding}}`;
  const base = `the budget of ${nf(t.budget)} tokens cut ${nf(tokensCut)} tokens from ${where}`;
  const plain = `${base.charAt(0).toUpperCase()}${base.slice(1)}: ${nf(t.bindingTokensKept)} of its ${nf(t.bindingTokensBefore)} tokens were kept.`;
  if (keptText === undefined) return { sentence: plain, tokensCut, units: null };
  const full = t.from === 'end' ? keptText + t.cutText : t.cutText + keptText;
  const fromArray = isJsonArray(full) ? arrayElements(full) : null;
  const spans = fromArray ?? markedUnits(full);
  if (!spans) return { sentence: plain, tokensCut, units: null };
  // The kept text is [0, keptEnd) when the end was cut, [cutEnd, length) when the start was.
  const keptFrom = t.from === 'end' ? 0 : t.cutText.length;
  const keptTo = t.from === 'end' ? keptText.length : full.length;
  let whole = 0;
  let partial = 0;
  const unread: string[] = [];
  for (const s of spans) {
    if (s.start >= keptFrom && s.end <= keptTo) whole++;
    else if (s.end <= keptFrom || s.start >= keptTo) unread.push(s.label);
    else partial++;
  }
  const noun = unitNoun(t.binding, !fromArray, full);
  const total = spans.length;
  const plural = (n: number) => `${n} ${noun}${n === 1 ? '' : 's'}`;
  const read = partial === 0 ? `read ${whole}` : whole === 0 ? `read part of ${partial === 1 ? 'one' : partial}` : `read ${whole} in full and part of the ${ordinal(t.from === 'end' ? whole + 1 : total - whole - partial + 1)}`;
  const missing = unread.length ? ` Not read at all: ${unread.join(', ')}.` : '';
  return { sentence: `Given ${plural(total)}, ${read}: ${base}.${missing}`, tokensCut, units: { total, full: whole, partial, unread } };
}
