import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ItemResult } from '../eval/item-result.ts';
import { readResults } from './results-file.ts';

let dir = '';
beforeAll(async () => void (dir = await mkdtemp(join(tmpdir(), 'seamscope-results-'))));
afterAll(() => rm(dir, { recursive: true, force: true }));

const result = (i: number, note = ''): ItemResult => ({
  variant: 'v', itemId: `item-${i}${note}`, runId: `run-${i}`, status: 'succeeded', pass: i % 2 === 0, abstained: false, scores: [],
  latencyMs: i, inputTokens: 10, outputTokens: 5, calls: 1, steps: [], boundaries: [],
});
const write = async (name: string, text: string | Buffer) => {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
};

describe('readResults', () => {
  it('streams a file of lines that straddle read chunks, multi-byte characters cut between them included', async () => {
    // Ids of 2-, 3- and 4-byte characters, and enough lines to span many 64 KiB chunks.
    const lines = Array.from({ length: 3000 }, (_, i) => JSON.stringify(result(i, ' é€😀'.repeat(i % 7))));
    const path = await write('many.jsonl', `${lines.join('\n')}\n`);
    const read = await readResults(path);
    if (typeof read === 'string') throw new Error(read);
    expect(read.results).toHaveLength(3000);
    expect(read.results[2999]?.itemId).toBe(`item-2999${' é€😀'.repeat(2999 % 7)}`);
    expect(read.repair).toBe('none');
    expect(read.keepBytes).toBe(Buffer.byteLength(`${lines.join('\n')}\n`));
  });

  it('a torn last line is to be cut at the end of the last whole line; one without its newline is to be ended', async () => {
    const whole = `${JSON.stringify(result(1))}\n${JSON.stringify(result(2))}\n`;
    const torn = await readResults(await write('torn.jsonl', `${whole}${JSON.stringify(result(3)).slice(0, 30)}`));
    expect(torn).toEqual({ results: [result(1), result(2)], keepBytes: Buffer.byteLength(whole), repair: 'cut' });
    const unended = `${whole}${JSON.stringify(result(3))}`;
    expect(await readResults(await write('unended.jsonl', unended))).toEqual({ results: [result(1), result(2), result(3)], keepBytes: Buffer.byteLength(unended), repair: 'newline' });
    expect(await readResults(join(dir, 'absent.jsonl'))).toEqual({ results: [], keepBytes: 0, repair: 'none' });
  });

  it('a bad line that is not the last is an error with the file and line number', async () => {
    const path = await write('bad.jsonl', `${JSON.stringify(result(1))}\n\n{"variant": 1}\n${JSON.stringify(result(2))}\n`);
    expect(await readResults(path)).toMatch(/bad\.jsonl line 3: /);
    expect(await readResults(await write('notjson.jsonl', `${JSON.stringify(result(1))}\nnot json\n${JSON.stringify(result(2))}\n`))).toMatch(/notjson\.jsonl line 2: not JSON/);
  });

  it('a line without end (a huge file with no newline) is refused once it passes the bound, not read whole', async () => {
    const path = await write('endless.jsonl', Buffer.alloc(17 * 1024 * 1024, 0x61));
    expect(await readResults(path)).toMatch(/endless\.jsonl line 1: longer than 16 MB/);
  });
});
