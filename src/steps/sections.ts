/**
 * Splits a document into addressable sections with stable ids, so retrieval can select whole
 * sections, dynamic enums can list a document's own ids, and quotes can be checked against the
 * section they claim. These shapes are recognised, in this order:
 * - statutes: `(a)` subsections (Markdown headings `##### (a) …`, or lines of their own in plain text)
 *   with `(1)`, `(A)`, `(i)`, `(I)` paragraphs → ids like `(b)(1)(D)(i)`;
 * - numbered clauses (`4.1 A member may appeal …`, `§ 4.1`, `Section 4.1`) → ids `4.1`, each with its text;
 * - Markdown headings → ids from a leading number (`7.3`) or the heading's position (`s4`);
 * - lettered or numbered items (`(a) …`, `1) …`) in a document without headings → `(a)`, `1)`;
 * - plain paragraphs → `p1`, `p2`, ….
 */
export interface Section {
  id: string;
  heading: string;
  text: string;
  start: number;
  end: number;
}

/** Lowercase roman numerals as clause markers, in order (`(i)` … `(xx)`). */
const romans = ['i', 'ii', 'iii', 'iv', 'v', 'vi', 'vii', 'viii', 'ix', 'x', 'xi', 'xii', 'xiii', 'xiv', 'xv', 'xvi', 'xvii', 'xviii', 'xix', 'xx'];
const romanUpper = /^(?:I|II|III|IV|V|VI|VII|VIII|IX|X|XI|XII|XIII|XIV|XV)$/;
const markerLine = /^\(([A-Za-z0-9]{1,6})\)\s+(.*)$/;
const headingLine = /^(#{1,6})\s+(.*)$/;

interface Line {
  text: string;
  start: number;
}

function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  for (const text_ of text.split('\n')) {
    lines.push({ text: text_, start });
    start += text_.length + 1;
  }
  return lines;
}

/** The nesting level of a paragraph marker, given the level of the paragraph before it. */
function markerLevel(marker: string, previousLevel: number): number | null {
  if (/^\d+$/.test(marker)) return 2;
  if (romans.includes(marker)) return 4;
  if (romanUpper.test(marker) && previousLevel >= 4) return 5;
  if (/^[A-Z]{1,2}$/.test(marker)) return 3;
  return null;
}

/** `a` → 1 … `z` → 26, `aa` → 27 … `zz` → 52 (subsections after `(z)`); null for anything else. */
function letterRank(marker: string): number | null {
  if (/^[a-z]$/.test(marker)) return marker.charCodeAt(0) - 96;
  if (/^([a-z])\1$/.test(marker)) return marker.charCodeAt(0) - 96 + 26;
  return null;
}

/**
 * In a statute without Markdown headings, whether a lowercase marker that could be either
 * is a clause `(i)`, `(v)`, `(x)` … (level 4) rather than the next subsection: it is when it
 * follows its roman predecessor in the same subparagraph, or when the next marker is its roman
 * successor (`(i)` then `(ii)`); otherwise, when it is the letter right after the current
 * subsection (`(h)` then `(i)`), it is the subsection.
 */
function isClauseMarker(marker: string, previousClause: string | undefined, nextMarker: string | undefined, topRank: number): boolean {
  const at = romans.indexOf(marker);
  if (at > 0 && previousClause === romans[at - 1]) return true;
  if (nextMarker !== undefined && nextMarker === romans[at + 1]) return true;
  return letterRank(marker) !== topRank + 1;
}

/**
 * Statutes: `(a)` subsections with `(1)`, `(A)`, `(i)`, `(I)` paragraphs below them, the
 * subsections either Markdown headings (`##### (a) In general`, as the US Code's Markdown has
 * them) or, in a statute pasted as plain text, lines of their own: there a lowercase marker is a
 * subsection when its letter comes after the current one, and the roman/letter ambiguity of
 * `(i)`, `(v)`, `(x)` is settled by the markers around it (isClauseMarker).
 */
function statuteSections(text: string, lines: Line[], plain: boolean): Section[] | null {
  const sections: Section[] = [];
  const path: string[] = [];
  let level = 0;
  let sawParagraph = false;
  const markers = lines.map((line) => markerLine.exec(line.text)?.[1]);
  let topRank = 0;
  let nextAt = 0;
  const nextMarker = (i: number) => {
    if (nextAt <= i) nextAt = i + 1;
    while (nextAt < lines.length && markers[nextAt] === undefined) nextAt++;
    return markers[nextAt];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as Line;
    const heading = headingLine.exec(line.text);
    const headingMarker = heading ? markerLine.exec(heading[2] ?? '') : null;
    if (!plain && headingMarker && /^[a-z]{1,2}$/.test(headingMarker[1] ?? '')) {
      path.length = 0;
      path[1] = `(${headingMarker[1]})`;
      level = 1;
      sections.push({ id: path.join(''), heading: heading?.[2] ?? '', text: '', start: line.start, end: line.start });
      continue;
    }
    const marker = markers[i];
    if (plain && marker !== undefined) {
      const rank = letterRank(marker);
      const clause = romans.includes(marker) && level >= 3 && isClauseMarker(marker, level >= 4 ? path[4]?.slice(1, -1) : undefined, nextMarker(i), topRank);
      // The first subsection is (a): a list of (i), (ii) items in a letter or a contract is no statute.
      if (rank !== null && rank > topRank && (topRank > 0 || rank === 1) && !clause) {
        topRank = rank;
        path.length = 0;
        path[1] = `(${marker})`;
        level = 1;
        sections.push({ id: path.join(''), heading: line.text.trim().slice(0, 120), text: '', start: line.start, end: line.start });
        continue;
      }
    }
    const next = marker !== undefined && path[1] ? markerLevel(marker, level) : null;
    if (next !== null) {
      sawParagraph = true;
      path.length = next;
      path[next] = `(${marker})`;
      level = next;
      sections.push({ id: path.filter(Boolean).join(''), heading: line.text.trim().slice(0, 120), text: '', start: line.start, end: line.start });
    }
  }
  if (!sawParagraph || sections.length < 2) return null;
  return closeSections(text, sections);
}

function headingSections(text: string, lines: Line[]): Section[] | null {
  const sections: Section[] = [];
  for (const line of lines) {
    const heading = headingLine.exec(line.text);
    if (!heading) continue;
    const title = (heading[2] ?? '').trim();
    const numbered = /^(\d+(?:\.\d+)*)\b/.exec(title);
    sections.push({ id: numbered?.[1] ?? `s${sections.length + 1}`, heading: title, text: '', start: line.start, end: line.start });
  }
  return sections.length >= 2 ? closeSections(text, sections) : null;
}

function paragraphSections(text: string): Section[] {
  const sections: Section[] = [];
  const pattern = /[^\n]+(?:\n(?!\s*\n)[^\n]*)*/g;
  for (const match of text.matchAll(pattern)) {
    if (!match[0].trim()) continue;
    const start = match.index ?? 0;
    sections.push({ id: `p${sections.length + 1}`, heading: match[0].trim().slice(0, 80), text: match[0], start, end: start + match[0].length });
  }
  return sections;
}

/** Each section runs to the start of the next; ids made unique by suffixing repeats. */
function closeSections(text: string, sections: Section[]): Section[] {
  const seen = new Map<string, number>();
  return sections.map((section, i) => {
    const end = sections[i + 1]?.start ?? text.length;
    const count = (seen.get(section.id) ?? 0) + 1;
    seen.set(section.id, count);
    return { ...section, id: count > 1 ? `${section.id}#${count}` : section.id, end, text: text.slice(section.start, end).trimEnd() };
  });
}

const clauseLine = /^\s*(?:§\s*|Section\s+)?(\d{1,3}(?:\.\d{1,3}){0,3})\.?\s{1,8}(\S.*)$/;

/**
 * Contracts and handbooks: lines that start with a clause number (`1.`, `1.1`, `4.1.`,
 * `§ 4.1`, `Section 10.5.1`) followed by the clause's text — each is a section whose text is
 * the clause, not a heading. Of all such lines, the clauses are the run whose numbers strictly
 * increase and which covers the most text (heaviestIncreasing): a table of contents before the
 * body, page numbers and cross-references that happen to start a line own little text and fall
 * out, and a numbering jump (`2.3` then `4.1`, a section left out) is kept. A Markdown heading
 * between clauses ends the clause before it (the heading belongs to what follows).
 */
function clauseSections(text: string, lines: Line[]): Section[] | null {
  const candidates: Section[] = [];
  const numbers: number[][] = [];
  const headingStarts: number[] = [];
  for (const line of lines) {
    if (headingLine.test(line.text)) {
      headingStarts.push(line.start);
      continue;
    }
    const match = clauseLine.exec(line.text);
    if (!match) continue;
    const id = match[1] as string;
    if (!id.includes('.') && !/^[A-Z]/.test(match[2] ?? '')) continue;
    candidates.push({ id, heading: (match[2] ?? '').slice(0, 120), text: '', start: line.start, end: line.start });
    numbers.push(id.split('.').map(Number));
  }
  // What each candidate would own: up to the next candidate or heading, whichever comes first.
  const weights: number[] = [];
  let h = 0;
  candidates.forEach((candidate, i) => {
    while (h < headingStarts.length && (headingStarts[h] as number) <= candidate.start) h++;
    const end = Math.min(candidates[i + 1]?.start ?? text.length, headingStarts[h] ?? text.length);
    weights.push(end - candidate.start);
  });
  const sections = heaviestIncreasing(numbers, weights).map((i) => candidates[i] as Section);
  // Three numbered clauses make a numbered document (a short handbook has a few per part).
  if (sections.filter((s) => s.id.includes('.')).length < 3) return null;
  return endAtHeadings(text, closeSections(text, sections), headingStarts);
}

/** Clause numbers in reading order: 4 < 4.1 < 4.2 < 4.10 < 5. */
function compareNumbers(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
  }
  return a.length - b.length;
}

/**
 * The indices, in order, of the strictly increasing subsequence of `numbers` with the largest
 * total weight: a Fenwick tree over the numbers' ranks holds the best chain ending below each
 * rank, so a document of n candidate lines costs O(n log n). Ties go to the later chain (a body
 * after its table of contents). The Python runtime's `_heaviest_increasing` is the same
 * algorithm, tie for tie.
 */
export function heaviestIncreasing(numbers: readonly (readonly number[])[], weights: readonly number[]): number[] {
  const n = numbers.length;
  if (n === 0) return [];
  const order = numbers.map((_, i) => i).sort((a, b) => compareNumbers(numbers[a] as number[], numbers[b] as number[]) || a - b);
  const rank = new Array<number>(n);
  let r = 0;
  order.forEach((index, k) => {
    if (k > 0 && compareNumbers(numbers[order[k - 1] as number] as number[], numbers[index] as number[]) !== 0) r++;
    rank[index] = r + 1;
  });
  const size = r + 1;
  // tree[k]: the best (total, last index) over a block of ranks; index -1 means none.
  const treeTotal = new Array<number>(size + 1).fill(0);
  const treeIndex = new Array<number>(size + 1).fill(-1);
  const better = (total: number, index: number, thanTotal: number, thanIndex: number) => total > thanTotal || (total === thanTotal && index > thanIndex);
  const total = new Array<number>(n);
  const parent = new Array<number>(n);
  let best = -1;
  for (let i = 0; i < n; i++) {
    let bestTotal = 0;
    let bestIndex = -1;
    for (let k = (rank[i] as number) - 1; k > 0; k -= k & -k) {
      if (better(treeTotal[k] as number, treeIndex[k] as number, bestTotal, bestIndex)) {
        bestTotal = treeTotal[k] as number;
        bestIndex = treeIndex[k] as number;
      }
    }
    total[i] = bestTotal + (weights[i] as number);
    parent[i] = bestIndex;
    for (let k = rank[i] as number; k <= size; k += k & -k) {
      if (better(total[i] as number, i, treeTotal[k] as number, treeIndex[k] as number)) {
        treeTotal[k] = total[i] as number;
        treeIndex[k] = i;
      }
    }
    if (best < 0 || better(total[i] as number, i, total[best] as number, best)) best = i;
  }
  const chain: number[] = [];
  for (let i = best; i >= 0; i = parent[i] as number) chain.push(i);
  return chain.reverse();
}

/** Cuts each section at the first Markdown heading inside it. */
function endAtHeadings(text: string, sections: Section[], headingStarts: readonly number[]): Section[] {
  let h = 0;
  return sections.map((section) => {
    while (h < headingStarts.length && (headingStarts[h] as number) <= section.start) h++;
    const cut = headingStarts[h];
    if (cut === undefined || cut >= section.end) return section;
    return { ...section, end: cut, text: text.slice(section.start, cut).trimEnd() };
  });
}

const enumeratedLine = /^\s*(?:\(([A-Za-z]{1,4}|\d{1,3})\)|(\d{1,3})\))\s+(\S.*)$/;

/**
 * Lists of lettered or numbered items, `(a) …`, `(1) …`, `1) …`, in a document with no
 * headings: each item is a section with its text (ids `(a)`, `(1)`, `1)`).
 */
function enumeratedSections(text: string, lines: Line[]): Section[] | null {
  const sections: Section[] = [];
  for (const line of lines) {
    const match = enumeratedLine.exec(line.text);
    if (!match) continue;
    const id = match[1] !== undefined ? `(${match[1]})` : `${match[2] as string})`;
    sections.push({ id, heading: (match[3] ?? '').slice(0, 120), text: '', start: line.start, end: line.start });
  }
  return sections.length >= 3 ? closeSections(text, sections) : null;
}

/** The top-level part of a section id (`(b)` of `(b)(1)(D)`, `10` of `10.5.1`), used to keep sections whole when grouping. */
export function topLevelOf(id: string): string {
  return /^\([^)]+\)/.exec(id)?.[0] ?? id.split('.')[0] ?? id;
}

export function splitSections(text: string): Section[] {
  const lines = splitLines(text);
  // A plain-text statute comes after numbered clauses and headings: a contract's or a handbook's
  // (a)/(i) lists inside its clauses or parts must not make it a statute.
  return statuteSections(text, lines, false) ?? clauseSections(text, lines) ?? headingSections(text, lines) ?? statuteSections(text, lines, true) ?? enumeratedSections(text, lines) ?? paragraphSections(text);
}
