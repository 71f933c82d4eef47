import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRunFile } from '../trace/run-file.ts';
import { budgetFromArgs } from './budget-args.ts';
import { main } from './main.ts';

describe('budget flags', () => {
  it('read time in seconds and money in dollars', () => {
    expect(budgetFromArgs({})).toBeUndefined();
    expect(budgetFromArgs({ 'max-steps': '3', 'max-time': '1.5', 'max-cost': '0.25' })).toEqual({ maxSteps: 3, maxTimeMs: 1500, maxCostUsd: 0.25 });
  });
  it('refuse what is not a positive number, naming the flag', () => {
    for (const bad of ['0', '-1', 'ten', '1e400', '', 'Infinity']) expect(() => budgetFromArgs({ 'max-tokens': bad })).toThrow(/--max-tokens must be a positive number/);
    expect(() => budgetFromArgs({ 'max-requests': true })).toThrow(/--max-requests/);
  });
  it('stop a demo run at its step budget, with the reason in the output and the trace', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'seamscope-budget-'));
    const out = join(dir, 'r.run.json');
    const err: string[] = [];
    const io = { out: () => {}, err: (t: string) => err.push(t), env: {} };
    const chain = new URL('../../public/demo/summarise-then-answer.chain.json', import.meta.url).pathname;
    expect(await main(['run', chain, '--max-steps', '1', '--out', out], io)).toBe(1);
    expect(err.join('\n')).toMatch(/failed — Run budget reached: step budget of 1 reached/);
    const file = parseRunFile(await readFile(out, 'utf8'));
    if (!file.ok) throw new Error('the run file does not parse');
    expect(file.file.events.filter((e) => e.type === 'step.started')).toHaveLength(1);
  });
});
