import { rm } from 'node:fs/promises';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../cli/main.ts';
import { readOtlpJson } from '../trace/otlp/guard.ts';
import { argvFor, hostileCases, hostileOtlpTexts, OUTSIDE_SECRET, snapshot, UNSAFE_PRINTED, writeHostileCase } from './hostile-files.ts';

/**
 * Every generated hostile file through the CLI command that reads it: refused with the JSON
 * path and the reason, or accepted where the value must work; in both cases no byte stored
 * beside it changes, no network request is made, the secret beside the folder never appears,
 * and nothing printed carries a control or bidi character (time and memory per case: battery B4).
 */
const cases = hostileCases();
const made: string[] = [];
afterAll(() => Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true }))));

const fetchCalls: unknown[] = [];
beforeEach(() => {
  fetchCalls.length = 0;
  vi.stubGlobal('fetch', (...args: unknown[]) => {
    fetchCalls.push(args);
    return Promise.reject(new Error('hostile-files: no network'));
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('hostile chain, run and inputs files', () => {
  it('number at least 200 and cover every item of #11 a file can attack', () => {
    expect(cases.length).toBeGreaterThanOrEqual(200);
    expect(new Set(cases.map((c) => c.item))).toEqual(new Set([1, 2, 3, 4, 5, 6, 7, 11]));
  });

  it.each(cases.map((c) => [c.id, c]))('%s', async (_id, c) => {
    const { root, folder, outside, file } = await writeHostileCase(c);
    made.push(root);
    const before = await snapshot(root);
    const lines: string[] = [];
    const io = { out: (t: string) => lines.push(t), err: (t: string) => lines.push(t), env: {} };
    const code = await main(argvFor(c, file, root), io);
    const printed = lines.join('\n');

    if (c.expect.outcome === 'refused') {
      expect(code, printed).not.toBe(0);
      expect(printed).toContain(c.expect.path);
      expect(printed).toContain(c.expect.message);
    } else {
      expect(code, printed).toBe(0);
    }
    expect(printed).not.toMatch(UNSAFE_PRINTED);
    expect(printed).not.toContain(OUTSIDE_SECRET);
    expect(fetchCalls).toEqual([]);
    // Nothing beside the file changed; only an accepted run or export wrote its own output.
    const after = await snapshot(root);
    const written = [...after.keys()].filter((k) => !before.has(k));
    for (const [key, value] of before) expect(after.get(key), key).toBe(value);
    if (c.expect.outcome === 'refused') expect(written).toEqual([]);
    else for (const key of written) expect(key.startsWith('out')).toBe(true);
    expect((await snapshot(folder)).size).toBeGreaterThan(0);
    expect([...(await snapshot(outside)).keys()]).toEqual(['secret.txt']);
  }, 20_000);

  it.each(hostileOtlpTexts().map((t) => [t.id, t]))('%s is refused by the trace reader', (_id, t) => {
    const read = readOtlpJson(t.text);
    expect(read.ok).toBe(false);
    expect(!read.ok && read.message).toContain(t.message);
  });
});
