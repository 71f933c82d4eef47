import type { SurvivalFact } from '../../../src/inspect/index.ts';

/** A piece of a source text: plain, or one occurrence of an extracted fact. */
export type TextPiece = { kind: 'text'; text: string } | { kind: 'fact'; text: string; fact: SurvivalFact; first: boolean };

/**
 * Slices a source into plain pieces and fact occurrences, by the occurrence offsets the
 * survival report carries. The pieces are rendered as React text children, never as HTML.
 * Overlapping or out-of-range occurrences (a report from another text) are skipped.
 */
export function factPieces(text: string, facts: readonly SurvivalFact[]): TextPiece[] {
  const spans = facts
    .flatMap((fact) => fact.occurrences.map((o, i) => ({ start: o.start, end: o.end, fact, first: i === 0 })))
    .filter((s) => s.start >= 0 && s.end > s.start && s.end <= text.length)
    .sort((a, b) => a.start - b.start || b.end - a.end);
  const pieces: TextPiece[] = [];
  let at = 0;
  for (const span of spans) {
    if (span.start < at) continue;
    if (span.start > at) pieces.push({ kind: 'text', text: text.slice(at, span.start) });
    pieces.push({ kind: 'fact', text: text.slice(span.start, span.end), fact: span.fact, first: span.first });
    at = span.end;
  }
  if (at < text.length) pieces.push({ kind: 'text', text: text.slice(at) });
  return pieces;
}
