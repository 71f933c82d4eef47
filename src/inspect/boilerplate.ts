import type { Fact } from './facts.ts';
import { matchesOf } from './matches.ts';

/**
 * What a document says about itself rather than its subject: where it came from (a source
 * note with its citations, such as "17 U.S.C. 105", a licence or copyright line, an HTML
 * comment) and the years in its headings. A summary is right to drop them, so they are never counted
 * as dropped facts nor offered as what a question asks. Recognised by the shape of the line,
 * not by what one document happens to say.
 */

/** An HTML comment: never shown to a reader, so never a fact a reader needs. */
const commentRe = /<!--[\s\S]*?(?:-->|$)/g;
/**
 * A line that says where the text came from or under what terms it is published. "Licence" only as
 * a label ("Licence: MIT", "Licensed under …"): in a licence's own text a wrapped line may start
 * with "License does not apply", which is a rule.
 */
const provenanceLineRe = /^[ \t>*_#-]*(?:sources?|copyright|©|\(c\)\s*\d{4}|licen[cs]e[d]?(?=[*_]*\s*(?::|—|–|\s-\s|\bunder\b|\bby\b))|retrieved|accessed|downloaded|all rights reserved|text as (?:packaged|published)|last (?:updated|modified|amended))\b[^\n]*/gim;
/** A markdown heading line ("# Title 42 (2023)"): its years date the edition, not a rule. */
const headingLineRe = /^[ \t]*#{1,6}[ \t][^\n]*/gm;

/** The spans of a text that are about the text itself, in order. */
export function boilerplateZones(text: string): { start: number; end: number; heading: boolean }[] {
  const zones: { start: number; end: number; heading: boolean }[] = [];
  for (const m of matchesOf(commentRe, text)) zones.push({ start: m.index, end: m.index + m[0].length, heading: false });
  for (const m of matchesOf(provenanceLineRe, text)) zones.push({ start: m.index, end: m.index + m[0].length, heading: false });
  for (const m of matchesOf(headingLineRe, text)) zones.push({ start: m.index, end: m.index + m[0].length, heading: true });
  return zones.sort((a, b) => a.start - b.start);
}

/**
 * A citation of a code or reporter, one reference rather than two numbers (in the body a fact a
 * question may ask for: "Which Federal Register notice…"): a title number, an abbreviation with full stops, a section
 * ("17 U.S.C. 105", "42 U.S.C. § 1395ff", "45 C.F.R. 164.502", "117 Stat. 2066").
 */
export const codeCitationRe = /(?<![\w.])\d{1,3}\s+(?:[A-Z][A-Za-z]{0,6}\.\s?){1,4}\s*(?:§§?\s?)?\d+[A-Za-z]*(?:[.\-–]\d+[A-Za-z]*)*(?:\([A-Za-z0-9]{1,4}\))*/g;

/** Whether a fact is boilerplate, given the zones of its text (from `boilerplateZones`). */
export function isBoilerplate(fact: Fact, zones: readonly { start: number; end: number; heading: boolean }[]): boolean {
  // The last zone starting at or before the fact, and the one before it (a comment may hold a source line).
  let lo = 0;
  let hi = zones.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((zones[mid] as { start: number }).start <= fact.start) lo = mid + 1;
    else hi = mid;
  }
  for (const z of [zones[lo - 1], zones[lo - 2]]) {
    if (z && fact.start < z.end && (!z.heading || fact.kind === 'date')) return true;
  }
  return false;
}
