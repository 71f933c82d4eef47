import 'fake-indexeddb/auto';
import { Dexie } from 'dexie';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { twoStepChain } from '../../src/testing/index.ts';
import { hostileCases } from '../../src/testing/index.ts';
import { importChainText, saveChain } from './chains.ts';
import { SeamscopeDb } from './db.ts';

/**
 * The app's import reads the same hostile files as the CLI. Every chain, program or YAML file the
 * CLI refuses at validate is refused here with the same path, and the database is left
 * byte-identical (every table dumped before and after); accepted ones are stored. No request
 * leaves the page. Symlink and run-time cases are the CLI's: a browser file has no folder.
 */
const importable = hostileCases().filter((c) => (c.kind === 'chain' || c.kind === 'program' || c.kind === 'yaml') && (c.command === 'validate' || c.command === 'export'));

let db: SeamscopeDb;
const dump = async () => JSON.stringify(await Promise.all(db.tables.map(async (t) => [t.name, await t.toArray()])));
const fetchCalls: unknown[] = [];

beforeEach(async () => {
  db = new SeamscopeDb(`hostile-${crypto.randomUUID()}`);
  await saveChain(db, twoStepChain(), 1000);
  fetchCalls.length = 0;
  vi.stubGlobal('fetch', (...args: unknown[]) => {
    fetchCalls.push(args);
    return Promise.reject(new Error('no network'));
  });
});
afterEach(async () => {
  vi.unstubAllGlobals();
  db.close();
  await Dexie.delete(db.name);
});

describe('importing hostile chain files in the app', () => {
  it('covers the chain and program cases', () => {
    expect(importable.length).toBeGreaterThanOrEqual(60);
  });

  it.each(importable.map((c) => [c.id, c]))('%s', async (_id, c) => {
    const before = await dump();
    const result = await importChainText(db, c.text, c.file);
    const expected = c.expect;
    if (expected.outcome === 'refused') {
      expect(result.ok).toBe(false);
      const problems = result.ok ? [] : result.problems;
      expect(problems.some((p) => p.path.startsWith(expected.path) && p.message.includes(expected.message)), JSON.stringify(problems)).toBe(true);
      expect(await dump()).toBe(before);
    } else {
      expect(result.ok, JSON.stringify(!result.ok && result.problems)).toBe(true);
    }
    expect(fetchCalls).toEqual([]);
  });
});
