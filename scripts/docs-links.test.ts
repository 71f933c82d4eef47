import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every link between the README and docs/ leads somewhere: the file exists and, for a link to a
 * heading, the heading does (anchors as GitHub makes them: lower case, punctuation dropped,
 * spaces to hyphens). Links out of the repository are not checked.
 */
const root = join(import.meta.dirname, '..');
const pages = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

const slug = (heading: string) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
const withoutCode = (text: string) => text.replace(/```[\s\S]*?```/g, '');

function anchorsOf(path: string): Set<string> {
  const text = withoutCode(readFileSync(join(root, path), 'utf8'));
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug((m[1] ?? '').replace(/`/g, ''))));
}

describe('links in the README and docs/', () => {
  it('lead to a file and a heading that exist', () => {
    const broken: string[] = [];
    for (const page of pages) {
      for (const [, target = ''] of withoutCode(readFileSync(join(root, page), 'utf8')).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target)) continue;
        const [file = '', anchor] = target.split('#');
        const path = file ? relative(root, join(root, dirname(page), file)) : page;
        if (!existsSync(join(root, path))) broken.push(`${page}: ${target} (no such file)`);
        else if (anchor && path.endsWith('.md') && !anchorsOf(path).has(anchor)) broken.push(`${page}: ${target} (no such heading)`);
      }
    }
    expect(pages.length).toBeGreaterThan(5);
    expect(broken).toEqual([]);
  });
});
