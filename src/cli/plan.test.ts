import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureIo } from '../testing/capture-io.ts';
import { parseArgs } from './args.ts';
import { main } from './main.ts';
import { planCommand } from './plan.ts';
import { planOptions } from './plan-usage.ts';

let dir: string;
let unitsPath: string;
const demoChain = new URL('../../public/demo/contract-rewrite.chain.json', import.meta.url).pathname;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'seamscope-plan-'));
  // Seed 004's contract by numbers: 214 clauses, 40,500 tokens.
  const units = Array.from({ length: 214 }, (_, i) => ({ id: `c${i + 1}`, tokens: Math.floor(((i + 1) * 40_500) / 214) - Math.floor((i * 40_500) / 214), startsSection: true }));
  unitsPath = join(dir, 'units.json');
  await writeFile(unitsPath, JSON.stringify(units));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const plan = async (argv: string[]) => {
  const { out, err, io } = captureIo();
  const code = await planCommand(parseArgs(argv, planOptions, 'plan'), io);
  return { code, out, err };
};

const seedFlags = ['--shared-tokens', '3800', '--output-tokens', '48000', '--window', '32000', '--cap', '16000', '--tokens-per-second', '60', '--fail-rate', '0.005'];

describe('seamscope plan', () => {
  it('prints the issue’s JSON object as the last line for a job described by numbers', async () => {
    const { code, out, err } = await plan(['--units', unitsPath, ...seedFlags, '--groups', '6,9,18', '--price-in', '3', '--price-out', '15', '--json']);
    expect(err).toEqual([]);
    expect(code).toBe(0);
    const report = JSON.parse(out.at(-1)!) as Record<string, unknown> & { granularities: Record<string, unknown>[] };
    expect(Object.keys(report).slice(0, 6)).toEqual(['format', 'version', 'units', 'pairs', 'recommended', 'granularities']);
    expect(report).toMatchObject({ format: 'seamscope.plan', version: 1, units: 214, pairs: { whole: 22_791 }, recommended: 6 });
    const nine = report.granularities.find((g) => g.groups === 9)!;
    expect(Object.keys(nine)).toEqual(expect.arrayContaining(['groups', 'seams', 'duplicatedSharedTokens', 'outputTokensPerGroup', 'inputTokensPerCall', 'totalInputTokens', 'totalOutputTokens', 'costUsd', 'failureProbability', 'fitsCap', 'fitsWindow', 'wallClock']));
    expect(nine).toMatchObject({ seams: 8, duplicatedSharedTokens: 34_200, totalInputTokens: 74_700, totalOutputTokens: 48_000, fitsCap: true, fitsWindow: true });
    expect(Object.keys(nine.wallClock as object)).toEqual(['parallelS', 'sequentialS', 'hierarchicalS', 'twoPassS']);
    // $3 / $15 per million: 74,700 in and 48,000 out.
    expect(nine.costUsd).toBeCloseTo(0.2241 + 0.72, 9);
  });

  it('prints a table with the recommended row starred and the reason', async () => {
    const { code, out } = await plan(['--units', unitsPath, ...seedFlags]);
    expect(code).toBe(0);
    const text = out.join('\n');
    expect(text).toMatch(/^6\*\s+5\s+22,800\s/m);
    expect(text).toMatch(/^9\s+8\s+34,200\s/m);
    expect(text).toMatch(/^18\s+17\s+68,400\s/m);
    expect(text).toContain('recommended: 6 — 6 groups: the fewest whose largest rewrite');
    expect(text).toContain('one pass: 44,300 in, 48,000 out — past the output cap');
  });

  it('plans the contract-rewrite demo from its bound document with the tokenizer', async () => {
    const { code, out, err } = await plan([demoChain, '--json']);
    expect(err).toEqual([]);
    expect(code).toBe(0);
    const report = JSON.parse(out.at(-1)!) as { units: number; step: string; recommended: number; splitStepGroups: number; granularities: { groups: number; fitsCap: boolean }[] };
    expect(report.step).toBe('split');
    expect(report.units).toBe(202);
    expect(report.recommended).toBeGreaterThan(1);
    expect(report.granularities[0]!.groups).toBe(report.recommended);
    // The split step fills groups greedily under the same limits, so it needs no more groups than the fewest that fit.
    expect(report.splitStepGroups).toBe(report.recommended);
  });

  it('exits 2 naming the file and the item when the units file is bad', async () => {
    const bad = join(dir, 'bad-units.json');
    await writeFile(bad, JSON.stringify([{ id: 'a', tokens: 10 }, { id: 'b', tokens: -3 }]));
    const result = await plan(['--units', bad, '--cap', '100', '--window', '1000']);
    expect(result.code).toBe(2);
    expect(result.err.join('\n')).toBe(`seamscope plan: ${bad}: [1].tokens must be a whole number from 0 to 10000000`);
    const missing = await plan(['--units', join(dir, 'nope.json'), '--cap', '100', '--window', '1000']);
    expect(missing.code).toBe(2);
    expect(missing.err.join('\n')).toContain(`${join(dir, 'nope.json')}: cannot be read (ENOENT)`);
    const notJson = join(dir, 'broken.json');
    await writeFile(notJson, '[{"id": "a", "tokens": 1,');
    expect((await plan(['--units', notJson, '--cap', '100', '--window', '1000'])).err.join('\n')).toContain(`${notJson}: `);
  });

  it('exits 2 on bad flags, and on numbers without a cap and a window', async () => {
    const noCap = await plan(['--units', unitsPath]);
    expect(noCap.code).toBe(2);
    expect(noCap.err.join('\n')).toContain('give --cap N and --window N');
    const rate = await plan(['--units', unitsPath, ...seedFlags, '--fail-rate', '5']);
    expect(rate.code).toBe(2);
    expect(rate.err.join('\n')).toContain('--fail-rate must be a number from 0 to 0.999999, got "5"');
    const groups = await plan(['--units', unitsPath, ...seedFlags, '--groups', '6,x']);
    expect(groups.err.join('\n')).toContain('--groups must be');
    expect((await plan([])).code).toBe(2);
  });

  it('exits 2 with the chain’s path when its split step cannot be planned', async () => {
    const chainPath = join(dir, 'no-split.chain.json');
    await writeFile(chainPath, JSON.stringify({ format: 'seamscope.chain', version: 1, id: 'x', name: 'x', inputs: [], steps: [] }));
    const result = await plan([chainPath]);
    expect(result.code).toBe(2);
    expect(result.err.join('\n')).toBe(`seamscope plan: ${chainPath}: the chain has no split step to plan`);
    const wrongStep = await plan([demoChain, '--step', 'rewrite']);
    expect(wrongStep.err.join('\n')).toContain('"rewrite" is not a split step of this chain (split steps: split)');
  });

  it('exits 2 naming the inputs file when a {"$file"} leaves its folder', async () => {
    const inputsPath = join(dir, 'inputs.json');
    await writeFile(inputsPath, JSON.stringify({ contract: { $file: '../outside.txt' } }));
    const result = await plan([demoChain, '--inputs', inputsPath]);
    expect(result.code).toBe(2);
    expect(result.err.join('\n')).toContain(`${inputsPath}: $.contract["$file"] names "../outside.txt", which is refused: it climbs out of the folder`);
  });

  it('is listed in the CLI help', async () => {
    const { out, io } = captureIo();
    expect(await main(['help'], io)).toBe(0);
    expect(out.join('\n')).toContain('seamscope plan <chain.json> [--step ID] [--inputs FILE]');
  });
});
