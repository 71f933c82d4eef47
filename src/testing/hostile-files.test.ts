import { createHash } from 'node:crypto';
import { lstat, readdir, readFile, readlink, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../cli/main.ts';
import { readOtlpJson } from '../trace/otlp/guard.ts';
import { hostileCases, hostileOtlpTexts, OUTSIDE_SECRET, writeHostileCase, type HostileCase } from './hostile-files.ts';

/**
 * Every generated hostile file through the CLI command that reads it: refused with the JSON
 * path and the reason, or accepted where the value must work; in both cases no byte stored
 * beside it changes, no network request is made, the secret beside the folder never appears,
 * nothing printed carries a control or bidi character, and each case ends within 5 s.
 */
const cases = hostileCases();
const made: string[] = [];
afterAll(() => Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true }))));

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const unsafe = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\u2028\u2029]/;

/** Every entry under `dir` (links not followed): path → content hash or link target. */
async function snapshot(dir: string, into = new Map<string, string>(), root = dir): Promise<Map<string, string>> {
  for (const entry of await readdir(dir)) {
    const path = join(dir, entry);
    const info = await lstat(path);
    const key = relative(root, path);
    if (info.isSymbolicLink()) into.set(key, `link → ${await readlink(path)}`);
    else if (info.isDirectory()) await snapshot(path, into.set(key, 'folder'), root);
    else into.set(key, createHash('sha256').update(await readFile(path)).digest('hex'));
  }
  return into;
}

function argvFor(c: HostileCase, file: string, root: string): string[] {
  switch (c.command) {
    case 'validate': return ['validate', file];
    case 'inspect': return ['inspect', file];
    case 'export': return ['export', file, '--lang', 'ts', '--out', join(root, 'out', 'export')];
    case 'run': return ['run', file, '--out', join(root, 'out', 'run.json'), ...(c.inputs ? ['--inputs', join(root, 'case', c.inputs)] : [])];
  }
}

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
  it('number at least 100 and cover every item of this slice', () => {
    expect(cases.length).toBeGreaterThanOrEqual(100);
    expect(new Set(cases.map((c) => c.item))).toEqual(new Set([1, 3, 6, 7, 11]));
  });

  it.each(cases.map((c) => [c.id, c]))('%s', async (_id, c) => {
    const { root, folder, outside, file } = await writeHostileCase(c);
    made.push(root);
    const before = await snapshot(root);
    const lines: string[] = [];
    const io = { out: (t: string) => lines.push(t), err: (t: string) => lines.push(t), env: {} };
    const started = performance.now();
    const code = await main(argvFor(c, file, root), io);
    const elapsed = performance.now() - started;
    const printed = lines.join('\n');

    if (c.expect.outcome === 'refused') {
      expect(code, printed).not.toBe(0);
      expect(printed).toContain(c.expect.path);
      expect(printed).toContain(c.expect.message);
    } else {
      expect(code, printed).toBe(0);
    }
    expect(printed).not.toMatch(unsafe);
    expect(printed).not.toContain(OUTSIDE_SECRET);
    expect(fetchCalls).toEqual([]);
    expect(elapsed).toBeLessThan(5000);
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
