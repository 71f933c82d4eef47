import { readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Shipped text speaks in its own words: no UI string, demo description, CLI message, doc or
 * shipped comment may send the reader to a document they do not have (a numbered seed, a
 * chapter, "the article", a design skill or the internal design notes). Each place says what
 * it means instead. Test files, test support (`src/testing`) and the demo's own input
 * documents (third-party texts such as a statute, which have chapters and articles of their own)
 * are not our prose and are left out.
 */
const root = join(import.meta.dirname, '..');

export const CITATIONS: readonly RegExp[] = [
  /\bseeds? ?0\d\d\b/i,
  /\bseed-0\d\d\b/i,
  /\bthe seed(?:'s)?\b/i,
  /\b(?:the|this|that) [\w-]+ chapter\b/i,
  /\bthe chapter\b|\bchapter's\b/i,
  /\bthe (?:source )?articles?\b|\barticle's\b/i,
  /\bdesign skill\b/i,
  /\bthe design notes\b/i,
  /\bDESIGN\.md\b/,
];

const SCANNED = ['app', 'src', 'public', 'docs', 'README.md'];
const TEXT = new Set(['.ts', '.tsx', '.js', '.mjs', '.json', '.jsonl', '.md', '.py', '.html', '.css', '.txt', '.yaml', '.yml', '.csv']);
const SKIPPED = [/\.test\.tsx?$/, /^src\/testing\//, /^public\/demo\/documents\//];

function* files(path: string): Generator<string> {
  const entries = (() => {
    try {
      return readdirSync(join(root, path), { withFileTypes: true });
    } catch {
      return null;
    }
  })();
  if (!entries) {
    yield path;
    return;
  }
  for (const entry of entries) yield* files(join(path, entry.name));
}

/** Every citation in one text, as `line: match`. */
export function citationsIn(text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, i) => {
    for (const pattern of CITATIONS) {
      const match = pattern.exec(line);
      if (match) found.push(`${i + 1}: ${match[0]}`);
    }
  });
  return found;
}

describe('words a user knows', () => {
  it('recognises each kind of citation it guards against', () => {
    for (const sample of ['(seed 004)', "Seed 000's four decisions", 'the handoff chapter', 'The pipeline from the measurable-seams chapter', 'written the way the article does', 'from the source articles', 'from the prompt-chaining design skill', "the seed's defaults"]) {
      expect(citationsIn(sample), sample).not.toEqual([]);
    }
    for (const plain of ['subchapter 7', 'a seed for the random source', '"seed": 42', 'article of clothing']) expect(citationsIn(plain), plain).toEqual([]);
  });

  it('finds none in app/, src/ (outside tests), public/, docs/ or the README', () => {
    const problems: string[] = [];
    let scanned = 0;
    for (const top of SCANNED) {
      for (const path of files(top)) {
        const rel = relative('.', path).replaceAll('\\', '/');
        if (!TEXT.has(extname(rel)) || SKIPPED.some((re) => re.test(rel))) continue;
        scanned += 1;
        for (const hit of citationsIn(readFileSync(join(root, rel), 'utf8'))) problems.push(`${rel}:${hit}`);
      }
    }
    expect(scanned).toBeGreaterThan(100);
    expect(problems).toEqual([]);
  });
});
