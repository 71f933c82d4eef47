import { describe, expect, it } from 'vitest';
import type { CountedUnit } from '../steps/index.ts';
import { planJob, PLAN_DEFAULTS, type PlanJob } from './planner.ts';

/**
 * Seed 004's contract: 214 clauses, 40,500 tokens of source, spread as evenly as whole tokens
 * allow (160 clauses of 189 tokens, 54 of 190), each clause its own section.
 */
function seedClauses(): CountedUnit[] {
  return Array.from({ length: 214 }, (_, i) => ({
    id: String(i + 1),
    tokens: Math.floor(((i + 1) * 40_500) / 214) - Math.floor((i * 40_500) / 214),
    section: String(i + 1),
  }));
}

/** Seed 004's job on Model B ($3 / $15 per million), with Model A as the two-pass reader. */
function seedJob(over: Partial<PlanJob> = {}): PlanJob {
  return {
    units: seedClauses(),
    sharedTokens: 3_800,
    // The seed's single pass reads 42,000, not 40,500 + 3,800 = 44,300: the definitions, parties and
    // governing-law clauses in the shared block are clauses of the contract, read once by one pass.
    sharedInDocumentTokens: 2_300,
    outputTokens: 48_000,
    expansion: PLAN_DEFAULTS.expansion,
    headroom: PLAN_DEFAULTS.headroom,
    writer: { window: 32_000, cap: 16_000, tokensPerSecond: 60, prices: { input: 3, output: 15 } },
    reader: { window: 128_000, tokensPerSecond: 60, prices: { input: 3, output: 15 }, defectListTokens: 900 },
    failRate: 0.005,
    ...over,
  };
}

/** "About" in the seed is a figure rounded to two significant digits: within 2% of it. */
const about = (actual: number, seed: number) => expect(Math.abs(actual / seed - 1)).toBeLessThan(0.02);

describe('planJob on seed 004', () => {
  const plan = planJob(seedJob({ groups: [6, 9, 18] }));
  const at = (g: number) => plan.granularities.find((row) => row.groups === g)!;

  it('has the clauses and source of the seed', () => {
    expect(plan.units).toBe(214);
    expect(plan.sourceTokens).toBe(40_500);
  });

  it('counts seams and duplicated shared context at 6 / 9 / 18 groups', () => {
    expect(plan.granularities.map((g) => g.groups)).toEqual([6, 9, 18]);
    expect(plan.granularities.map((g) => g.seams)).toEqual([5, 8, 17]);
    expect(plan.granularities.map((g) => g.duplicatedSharedTokens)).toEqual([22_800, 34_200, 68_400]);
  });

  it('projects about 8,000 / 5,300 / 2,700 tokens of output for the largest group', () => {
    about(at(6).outputTokensPerGroup, 8_000);
    about(at(9).outputTokensPerGroup, 5_300);
    about(at(18).outputTokensPerGroup, 2_700);
    for (const row of plan.granularities) expect(row.fitsCap && row.fitsWindow).toBe(true);
    expect(at(9).totalOutputTokens).toBe(48_000);
  });

  it('prices nine groups at 74,700 tokens of input against 42,000 for one pass', () => {
    expect(at(9).totalInputTokens).toBe(74_700);
    expect(plan.onePass.inputTokens).toBe(42_000);
    // One pass cannot be emitted: 48,000 tokens of rewrite against a 16,000 cap.
    expect(plan.onePass.fitsCap).toBe(false);
    about(at(9).inputTokensPerCall, 8_300);
  });

  it('finishes nine parallel groups in about 88 s against about 800 s sequential, which passes the window', () => {
    about(at(9).wallClock.parallelS, 88);
    expect(at(9).wallClock.sequentialS).toBe(800);
    // Call nine would carry ~42,000 tokens of earlier rewrites; the window is passed well before it.
    expect(at(9).sequentialPassesWindowAtCall).not.toBeNull();
    expect(at(9).sequentialPassesWindowAtCall!).toBeLessThanOrEqual(9);
    // Two-pass: the parallel floor plus a 900-token defect list and one group rerun.
    expect(at(9).wallClock.twoPassS).toBeCloseTo(at(9).wallClock.parallelS * 2 + 900 / 60, 6);
  });

  it('gives a nine-call job a 4.4% chance of failing somewhere at 0.5% per call', () => {
    expect(at(9).failureProbability).toBeCloseTo(0.044, 3);
  });

  it('counts 22,791 clause pairs against about 2,500 within nine groups', () => {
    expect(plan.pairs.whole).toBe(22_791);
    // Nine groups of 23–25 clauses: Σ gᵢ(gᵢ − 1)/2 comes to 2,439 here (the seed's 9 × 24 × 23 / 2 is 2,484).
    expect(at(9).pairsWithinGroups).toBeGreaterThan(2_400);
    expect(at(9).pairsWithinGroups).toBeLessThanOrEqual(2_500);
  });

  it('recommends six groups, the fewest under 60% of the cap, and by default evaluates 6 / 9 / 18', () => {
    const byDefault = planJob(seedJob());
    expect(byDefault.recommended).toBe(6);
    expect(byDefault.granularities.map((g) => g.groups)).toEqual([6, 9, 18]);
    expect(byDefault.why).toMatch(/^6 groups: the fewest whose largest rewrite \([\d,]+ tokens\) stays within 60% of the 16,000-token cap \(9,600\)/);
    expect(byDefault.why).toMatch(/5 would need [\d,]+ tokens of output in a group/);
    expect(byDefault.pairs.withinGroups).toBe(byDefault.granularities[0]!.pairsWithinGroups);
    expect(byDefault.warnings.join('\n')).toMatch(/unit pairs \(\d+%\).*globally dependent/);
  });
});

describe('planJob limits', () => {
  it('recommends one call when the whole rewrite fits, with no seams and no pair warning', () => {
    const plan = planJob(seedJob({ outputTokens: undefined, units: seedClauses().slice(0, 20) }));
    expect(plan.recommended).toBe(1);
    expect(plan.granularities[0]).toMatchObject({ groups: 1, seams: 0 });
    expect(plan.granularities[0]!.failureProbability).toBeCloseTo(0.005, 9);
    expect(plan.why).toContain('one call does the job');
    expect(plan.warnings).toEqual([]);
  });

  it('recommends nothing when one unit alone projects past the cap, and says so', () => {
    // 20,000 × 1.2 = 24,000 tokens of rewrite for one clause: no call can emit it.
    const plan = planJob(seedJob({ outputTokens: undefined, units: [{ id: 'huge', tokens: 20_000, section: '0' }, ...seedClauses()] }));
    expect(plan.recommended).toBeNull();
    expect(plan.why).toMatch(/^No grouping fits/);
    expect(plan.granularities.every((g) => !g.withinHeadroom && !g.fitsCap)).toBe(true);
    expect(plan.warnings[0]).toContain('Unit huge alone projects 24,000 tokens, over the 9,600 planned per group: it gets a group of its own, with less room for a long rewrite, and is past the cap itself.');
  });

  it('lets a clause too big for the headroom but within the cap stand alone, and still recommends', () => {
    // 10,000 × 1.2 = 12,000: over 9,600, under 16,000. The other clauses are grouped as before.
    const plan = planJob(seedJob({ outputTokens: undefined, units: [...seedClauses().slice(0, 100), { id: 'long', tokens: 10_000, section: 'long' }, ...seedClauses().slice(100)] }));
    expect(plan.recommended).not.toBeNull();
    const rec = plan.granularities.find((g) => g.groups === plan.recommended)!;
    expect(rec).toMatchObject({ withinHeadroom: true, fitsCap: true, outputTokensPerGroup: 12_000 });
    expect(plan.why).toContain('a unit too big to share a group projects 12,000 on its own');
    expect(plan.warnings[0]).toMatch(/^Unit long alone projects 12,000 tokens/);
  });

  it('uses the expansion when no total output is given, and warns when the reader cannot read the job', () => {
    const plan = planJob(seedJob({ outputTokens: undefined, reader: { window: 32_000, tokensPerSecond: 60, prices: { input: 0, output: 0 }, defectListTokens: 900 } }));
    expect(plan.granularities[0]!.totalOutputTokens).toBe(48_600);
    expect(plan.warnings.join('\n')).toContain('past its 32,000-token window');
  });

  it('finds the same fewest groups as trying every count, with sections and an outsized clause', () => {
    // 300 clauses of 40–400 tokens in sections of 1–7 clauses, and one clause over the headroom.
    const units: CountedUnit[] = Array.from({ length: 300 }, (_, i) => ({ id: `u${i}`, tokens: i === 150 ? 9_000 : 40 + ((i * 7919) % 361), section: `s${Math.floor(i / (1 + (i % 7)))}` }));
    const job = seedJob({ units, outputTokens: undefined });
    const plan = planJob(job);
    const firstFitting = Array.from({ length: 300 }, (_, i) => i + 1).find((g) => {
      const row = planJob({ ...job, groups: [g] }).granularities[0]!;
      return row.withinHeadroom && row.fitsWindow;
    });
    expect(plan.recommended).toBe(firstFitting);
    expect(plan.warnings[0]).toMatch(/^Unit u150 alone projects 10,800 tokens/);
  });

  it('plans 20,000 units near the lower bound the output sets', () => {
    const units: CountedUnit[] = Array.from({ length: 20_000 }, (_, i) => ({ id: String(i), tokens: 100 + (i % 50), section: String(i) }));
    const plan = planJob(seedJob({ units, outputTokens: undefined, sharedInDocumentTokens: 0 }));
    // 2,490,000 tokens × 1.2 ÷ 9,600 per group: at least 312 groups; whole units cost a few more.
    expect(plan.recommended).toBeGreaterThanOrEqual(312);
    expect(plan.recommended).toBeLessThan(320);
    expect(plan.granularities.map((g) => g.groups)).toEqual([plan.recommended, Math.round(plan.recommended! * 1.5), plan.recommended! * 3]);
  });
});
