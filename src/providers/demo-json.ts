import { isRecord } from '../files/json-value.ts';
/**
 * Finds JSON values embedded in a prompt (an earlier step's output rendered as pretty JSON)
 * and turns their quote-like strings into evidence, keeping a sibling `section_id` as the
 * place the quote claims to come from. JSON Schemas appended as instructions are skipped.
 */

export interface JsonLeaf {
  text: string;
  sectionId: string | null;
}

const idKey = /^(?:section_?id|clause_?id|source_?id|id|section|clause|ref)$/i;
const reasonKey = /why|reason|rationale|explanation|justification/i;
const quoteKey = /quote|evidence|excerpt|snippet|passage|span|text|answer|summary/i;

/** Index just past the bracket that closes the one at `start`, or -1; string-aware. */
function matchBracket(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

function looksLikeSchema(value: unknown): boolean {
  if (!isRecord(value)) return false;
  const v = value;
  return '$schema' in v || ((typeof v.type === 'string' || Array.isArray(v.type)) && ('properties' in v || 'items' in v));
}

function collect(value: unknown, key: string, siblingId: string | null, out: JsonLeaf[], depth: number): void {
  if (depth > 12) return;
  if (typeof value === 'string') {
    if (!reasonKey.test(key) && !idKey.test(key) && (quoteKey.test(key) || value.length >= 40)) out.push({ text: value.trim(), sectionId: siblingId });
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) collect(item, key, siblingId, out, depth + 1);
    return;
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value);
    const id = entries.find(([k, v]) => idKey.test(k) && (typeof v === 'string' || typeof v === 'number'));
    const ownId = id ? String(id[1]) : siblingId;
    for (const [k, v] of entries) collect(v, k, ownId, out, depth + 1);
  }
}

/** Returns the prompt with each JSON block blanked out, the evidence strings inside them, and the values. */
export function extractJsonBlocks(content: string): { text: string; leaves: JsonLeaf[]; values: unknown[] } {
  const leaves: JsonLeaf[] = [];
  const values: unknown[] = [];
  let text = content;
  const starts = [...content.matchAll(/^[ \t]*[{[]/gm)].map((m) => (m.index ?? 0) + m[0].length - 1);
  let consumedUntil = 0;
  for (const start of starts) {
    if (start < consumedUntil) continue;
    const end = matchBracket(content, start);
    if (end < 0) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(content.slice(start, end));
    } catch {
      continue;
    }
    consumedUntil = end;
    if (!looksLikeSchema(parsed)) {
      collect(parsed, '', null, leaves, 0);
      values.push(parsed);
    }
    // Blank the block (same length) so the line reader neither quotes JSON syntax nor shifts.
    text = text.slice(0, start) + content.slice(start, end).replace(/[^\n]/g, ' ') + text.slice(end);
  }
  return { text, leaves, values };
}

export interface LeafPiece {
  text: string;
  titles: string[];
}

/**
 * A multi-line JSON string (a retrieved section, a clause handed over whole) read as a small
 * document: Markdown headings and short "(i) Heading" lines become titles, bullets lose their
 * marker, and the rest splits into sentences. Every piece is a verbatim slice of one line.
 * Single-line strings stay whole, as an earlier step's quote should.
 */
export function leafPieces(text: string, split: (line: string) => [number, number][]): LeafPiece[] {
  if (!text.includes('\n')) return [{ text, titles: [] }];
  const pieces: LeafPiece[] = [];
  const titles: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim().replace(/^(?:[-*+>]\s+)+/, '');
    if (!line) continue;
    const heading = /^#{1,6}\s+(.*)$/.exec(line)?.[1];
    const shortTitle = /^\([A-Za-z0-9]{1,5}\)\s+[A-Z][^.;:,]{0,100}$/.test(line) || /^\*\*[^*]{1,100}\*\*$/.test(line);
    if (heading !== undefined || shortTitle) {
      titles.splice(0, titles.length, (heading ?? line).replace(/^\*\*|\*\*$/g, '').replace(/^\([A-Za-z0-9]{1,5}\)\s+/, ''));
      continue;
    }
    for (const [s, e] of split(line)) pieces.push({ text: line.slice(s, e), titles: [...titles] });
  }
  return pieces;
}
