import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureIo } from '../testing/capture-io.ts';
import { main } from './main.ts';

/** `seamscope eval promptfooconfig.yaml`: the config's prompts as variants over its tests, on the demo model. */
const SAMPLES = fileURLToPath(new URL('../testing/import-samples/promptfoo/', import.meta.url));
let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'seamscope-eval-promptfoo-'));
  await copyFile(join(SAMPLES, 'getting-started/promptfooconfig.yaml'), join(dir, 'promptfooconfig.yaml'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('seamscope eval on a promptfoo config', () => {
  it('runs every prompt over every test with the scorers its assertions became, and prints the report first', async () => {
    const run = captureIo();
    const code = await main(['eval', join(dir, 'promptfooconfig.yaml'), '--out', join(dir, 'out'), '--json'], run.io);
    expect(code, run.err.join('\n')).toBe(0);
    const report = JSON.parse(run.out.at(-1) ?? '{}') as { dataset: { items: number }; variants: { name: string; n: number; calls: number; accuracy: number }[] };
    expect(report.dataset.items).toBe(2);
    expect(report.variants.map((v) => [v.name, v.n, v.calls])).toEqual([['promptfoo-promptfooconfig-1', 2, 1], ['promptfoo-promptfooconfig-2', 2, 1]]);
    // The demo model does not translate: the contains scorers (Bonjour le monde…) fail every item, as they should.
    expect(report.variants.map((v) => v.accuracy)).toEqual([0, 0]);
    const results = await readFile(join(dir, 'out', 'results.jsonl'), 'utf8');
    const scores = results.trim().split('\n').map((line) => (JSON.parse(line) as { scores: { scorer: string; pass: boolean; detail: string }[] }).scores[0]);
    expect(scores).toContainEqual({ scorer: 'contains', pass: false, detail: '"Bonjour le monde" not found' });
    expect(run.err[0]).toMatch(/^Imported from promptfoo: \d+ kept exactly/);
  });

  it('refuses a config whose prompt is in a file, naming it, and runs nothing', async () => {
    const run = captureIo();
    await copyFile(join(SAMPLES, 'multiple-turn-conversation/promptfooconfig.yaml'), join(dir, 'multi.promptfooconfig.yaml'));
    expect(await main(['eval', join(dir, 'multi.promptfooconfig.yaml'), '--out', join(dir, 'out-multi')], run.io)).toBe(2);
    expect(run.err.join('\n')).toContain('$.prompts[0]  the prompt file://prompt.json is a file beside the config');
  });

  it('still needs --dataset for a file that holds one chain', async () => {
    const run = captureIo();
    await copyFile(fileURLToPath(new URL('../../public/demo/summarise-then-answer.chain.json', import.meta.url)), join(dir, 'one.chain.json'));
    expect(await main(['eval', join(dir, 'one.chain.json')], run.io)).toBe(2);
    expect(run.err.join('\n')).toContain('holds one chain and no tests: eval needs --dataset');
  });
});
