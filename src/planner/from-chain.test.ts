import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Chain } from '../chain/index.ts';
import { stepRegistry } from '../steps/index.ts';
import { jobFromChain } from './from-chain.ts';

const demo = () => JSON.parse(readFileSync(new URL('../../public/demo/contract-rewrite.chain.json', import.meta.url), 'utf8')) as Chain;
const contract = readFileSync(new URL('../../public/demo/documents/cuad-neoforma-verticalnet-co-branding-1999.txt', import.meta.url), 'utf8');
const countTokens = (t: string) => Math.ceil(t.length / 4);
const profile = { contextWindow: 32_000, maxOutputTokens: 16_000, prices: { input: 3, output: 15 } };

describe('jobFromChain', () => {
  it('reads the split step’s units and shared context from the inputs, its cap from its config and the window from the profile', () => {
    const built = jobFromChain(demo(), stepRegistry, { inputs: { contract, style_guide: 'Use plain English.' }, countTokens, profile });
    if (!built.ok) throw new Error(built.problem);
    expect(built.stepId).toBe('split');
    expect(built.job.units).toHaveLength(202);
    expect(built.job.units[1]).toMatchObject({ id: '1.1', section: '1' });
    expect(built.job.sharedTokens).toBe(countTokens('Use plain English.'));
    // outputCap 4000 in the chain; window 0 takes the profile's.
    expect(built.job.writer).toMatchObject({ cap: 4000, window: 32_000, prices: { input: 3, output: 15 } });
    expect(built.job).toMatchObject({ expansion: 1.2, headroom: 0.6 });
    expect(built.splitGroups).toBeGreaterThan(1);
  });

  it('says what it needs when the units come from a step or an input has no value', () => {
    const chain = demo();
    const split = chain.steps.find((s) => s.id === 'split')!;
    (split.config.bindings as Record<string, string>).units = 'steps.rewrite.results';
    const fromStep = jobFromChain(chain, stepRegistry, { inputs: { contract }, countTokens, profile });
    expect(fromStep).toEqual({ ok: false, problem: 'the units come from the step "rewrite", known only when the chain runs: bind them to a chain input, or plan by numbers with `seamscope plan --units`' });
    const empty = jobFromChain(demo(), stepRegistry, { inputs: {}, countTokens, profile });
    expect(empty).toEqual({ ok: false, problem: 'the units read the input "contract", which has no value (give it in the inputs file, or meta.inputFiles)' });
  });
});
