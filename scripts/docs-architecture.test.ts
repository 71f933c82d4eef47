import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * docs/architecture.md's layer table says what eslint.config.js enforces: one row per area,
 * the areas it may import and the ones it may import types from. When the layers change in the
 * config, this fails until the table says the same.
 */
type Layers = Record<string, { allow: string[]; types?: string[] }>;

const root = join(import.meta.dirname, '..');
const table = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8')
  .split('\n')
  .filter((line) => /^\| `/.test(line))
  .map((line) => line.split('|').slice(1, -1).map((cell) => cell.trim()));

/** `chain, files` → ['chain', 'files']; a cell's notes in parentheses are left out. */
const areasIn = (cell: string) => cell.replace(/\([^)]*\)/g, '').split(',').map((s) => s.trim()).filter((s) => s && s !== '—').map((s) => (s === 'any area' ? '*' : s)).sort();

describe('docs/architecture.md', () => {
  it('lists every layer with the imports eslint.config.js allows it', async () => {
    const { layers } = (await import(pathToFileURL(join(root, 'eslint.config.js')).href)) as { layers: Layers };
    const rows = new Map<string, { allow: string[]; types: string[] }>();
    for (const [areas = '', allow = '', types = ''] of table) {
      for (const [, name] of areas.replace(/\([^)]*\)/g, '').matchAll(/`([a-z]+)`/g)) rows.set(name ?? '', { allow: areasIn(allow), types: areasIn(types) });
    }
    expect(Object.keys(layers).length).toBeGreaterThan(10);
    for (const [area, rule] of Object.entries(layers)) {
      expect(rows.get(area), `docs/architecture.md: the row for ${area} must say what eslint.config.js allows`).toEqual({ allow: [...rule.allow].sort(), types: [...(rule.types ?? [])].sort() });
    }
  });
});
