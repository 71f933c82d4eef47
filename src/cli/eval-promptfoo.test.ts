import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
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

  it('refuses a config whose prompt file is Nunjucks beyond {{ var }}, naming it, and runs nothing', async () => {
    const run = captureIo();
    await copyFile(join(SAMPLES, 'multiple-turn-conversation/promptfooconfig.yaml'), join(dir, 'multi.promptfooconfig.yaml'));
    await copyFile(join(SAMPLES, 'multiple-turn-conversation/prompt.json'), join(dir, 'prompt.json'));
    expect(await main(['eval', join(dir, 'multi.promptfooconfig.yaml'), '--out', join(dir, 'out-multi')], run.io)).toBe(2);
    expect(run.err.join('\n')).toContain('$.prompts[0] (prompt.json)  the prompt "multi-turn-conversation" cannot be a Seamscope template: it uses Nunjucks beyond {{ var }}');
  });

  it('reads the prompts and tests files beside the config and judges each output against its test\'s rubric', async () => {
    const sub = join(dir, 'rubric');
    await mkdir(sub);
    for (const file of ['promptfooconfig.yaml', 'prompts.txt', 'tests.yaml', 'parcel-message.txt']) await copyFile(join(SAMPLES, 'rubric-and-files', file), join(sub, file));
    const run = captureIo();
    const code = await main(['eval', join(sub, 'promptfooconfig.yaml'), '--out', join(sub, 'out'), '--json'], run.io);
    expect(code, run.err.join('\n')).toBe(0);
    const report = JSON.parse(run.out.at(-1) ?? '{}') as { dataset: { items: number }; variants: { name: string; n: number; calls: number }[] };
    // Two prompts from prompts.txt (split at ---), over the two tests of tests.yaml; the judge's calls are not the variants'.
    expect(report.variants.map((v) => [v.name, v.n, v.calls])).toEqual([['promptfoo-promptfooconfig-1', 2, 1], ['promptfoo-promptfooconfig-2', 2, 1]]);
    const results = (await readFile(join(sub, 'out', 'results.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { scores: { scorer: string; detail: string }[]; judge?: { calls: number } });
    // The var promptfoo reads from file://parcel-message.txt is the file's text, read from the config's folder.
    const firstRun = JSON.parse(await readFile(join(sub, 'out', 'runs', 'promptfoo-promptfooconfig-1', 'test-1.run.json'), 'utf8')) as { run: { inputs: Record<string, unknown> } };
    expect(firstRun.run.inputs.message).toBe('My parcel has not arrived after 12 days.\n');
    for (const result of results) {
      expect(result.scores.map((s) => s.scorer)).toEqual(['contains', 'judge:promptfoo-llm-rubric']);
      expect(result.scores[1]?.detail).toMatch(/^the judge (says|returned|run)/);
      expect(result.judge?.calls).toBe(1);
    }
    const err = run.err.join('\n');
    expect(err).toMatch(/dropped {2}tests \(tests\.yaml\[1\]\)\.assert\[2\]: the assertion javascript \(it runs JavaScript code, which an import never runs\)/);
    expect(err).toContain('the assertion llm-rubric (the judge chain promptfoo-llm-rubric');
  });

  it('still needs --dataset for a file that holds one chain', async () => {
    const run = captureIo();
    await copyFile(fileURLToPath(new URL('../../public/demo/summarise-then-answer.chain.json', import.meta.url)), join(dir, 'one.chain.json'));
    expect(await main(['eval', join(dir, 'one.chain.json')], run.io)).toBe(2);
    expect(run.err.join('\n')).toContain('holds one chain and no tests: eval needs --dataset');
  });
});
