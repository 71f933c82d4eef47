import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { captureIo } from '../testing/capture-io.ts';
import { main } from './main.ts';

/** The two-pass chain as an eval variant next to the one-pass rewrite, on the demo contract dataset. */
const demo = (file: string) => fileURLToPath(new URL(`../../public/demo/${file}`, import.meta.url));
const dirs: string[] = [];
afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

describe('seamscope eval: one pass against two passes', () => {
  it('prints both designs with their calls and tokens; the two-pass design keeps the defined term', async () => {
    const out = await mkdtemp(join(tmpdir(), 'seamscope-two-pass-'));
    dirs.push(out);
    const args = ['eval', demo('contract-rewrite.chain.json'), demo('contract-rewrite-two-pass.chain.json'), '--dataset', demo('datasets/contract-rewrite.dataset.jsonl'), '--out', out];
    const json = captureIo();
    expect(await main([...args, '--json'], json.io)).toBe(0);
    const report = JSON.parse(json.out.at(-1) ?? '{}') as { variants: { name: string; n: number; accuracy: number; calls: number; inputTokens: number; outputTokens: number }[] };
    const byName = Object.fromEntries(report.variants.map((v) => [v.name, v]));
    const one = byName['demo-contract-rewrite'];
    const two = byName['demo-contract-rewrite-two-pass'];
    // 11 writer groups; then one reader call and the two groups it names.
    expect(one).toMatchObject({ n: 2, accuracy: 0, calls: 11 });
    expect(two).toMatchObject({ n: 2, accuracy: 1, calls: 14 });
    // The reader reads the whole (original and rewrite), so the second pass costs input, not output.
    expect(two!.inputTokens).toBeGreaterThan(2 * one!.inputTokens);
    expect(two!.outputTokens - one!.outputTokens).toBeLessThan(one!.outputTokens / 2);

    const table = captureIo();
    expect(await main(args, table.io)).toBe(0);
    const text = table.out.join('\n');
    expect(text).toMatch(/calls/);
    expect(text).toMatch(/#1\s+demo-contract-rewrite-two-pass\s+chain\s+2\s+100\.0%.*\s14\.0\s/);
    expect(text).toMatch(/#2\s+demo-contract-rewrite\s+chain\s+2\s+0\.0%.*\s11\.0\s/);
  });
});
