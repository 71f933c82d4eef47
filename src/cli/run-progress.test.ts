import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { captureIo } from '../testing/capture-io.ts';
import { main } from './main.ts';

/** `seamscope run` on a split → map → assemble chain: the document's top part on stderr as it grows; stdout stays the output. */
const demo = (file: string) => fileURLToPath(new URL(`../../public/demo/${file}`, import.meta.url));
const dirs: string[] = [];
afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

describe('seamscope run: partial delivery', () => {
  it('prints "assembled k/n groups (units a–b)" lines on stderr in order, and only the document on stdout', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'seamscope-progress-'));
    dirs.push(dir);
    const io = captureIo();
    expect(await main(['run', demo('contract-rewrite.chain.json'), '--out', join(dir, 'r.json')], io.io)).toBe(0);
    const lines = io.err.filter((l) => l.includes('assembled '));
    expect(lines[0]).toMatch(/^ {2}assembled 1\/11 groups \(units 1–1\.39\) \[assemble\]$/);
    expect(lines.at(-1)).toMatch(/^ {2}assembled 11\/11 groups \(units 1–16\.16\) \[assemble\]$/);
    const counts = lines.map((l) => Number(/assembled (\d+)\//.exec(l)?.[1]));
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(new Set(counts).size).toBe(counts.length);
    // stdout is the run's output alone: the assembled document as JSON.
    const output = JSON.parse(io.out.join('\n')) as { document: string; complete: boolean };
    expect(output.complete).toBe(true);
    expect(output.document.startsWith('1 Definitions.')).toBe(true);
  });
});
