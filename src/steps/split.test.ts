import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { splitConfigSchema, splitStep, type SplitConfig } from './split.ts';
import { groupUnits, toUnits, type Unit } from './split-units.ts';
import type { StepRunContext } from './types.ts';

const contract = readFileSync(new URL('../../public/demo/documents/cuad-neoforma-verticalnet-co-branding-1999.txt', import.meta.url), 'utf8');
const count = (t: string) => Math.ceil(t.length / 4);

describe('split', () => {
  const units = toUnits(contract) as Unit[];
  const plan = { cap: 4000, window: 32_000, sharedTokens: 1500, expansion: 1.2, headroom: 0.6 };

  it('finds the contract’s 202 numbered clauses', () => {
    expect(units).toHaveLength(202);
    expect(units[1]).toMatchObject({ id: '1.1', section: '1' });
  });

  it('puts every clause in exactly one group, within the output cap, keeping sections whole', () => {
    const groups = groupUnits(units, plan, count);
    const ids = groups.flatMap((g) => g.unit_ids);
    expect(ids).toEqual(units.map((u) => u.id));
    for (const g of groups) {
      if (g.unit_ids.length > 1) expect(g.projected_output_tokens).toBeLessThanOrEqual(plan.cap * plan.headroom);
      expect(g.input_tokens).toBeLessThanOrEqual(plan.window);
    }
    // A section only spans groups when it is too big for one on its own.
    const sectionsOf = (g: { unit_ids: string[] }) => new Set(g.unit_ids.map((id) => id.split('.')[0]));
    for (let i = 1; i < groups.length; i++) {
      const shared = [...sectionsOf(groups[i - 1]!)].filter((s) => sectionsOf(groups[i]!).has(s));
      for (const s of shared) {
        const sectionTokens = units.filter((u) => u.section === s).reduce((n, u) => n + count(u.text), 0);
        expect(sectionTokens * plan.expansion).toBeGreaterThan(plan.cap * plan.headroom);
      }
    }
  });

  it('makes exactly the number of groups chosen (from the planner), balanced, contiguous and sections whole', async () => {
    const run = (config: Partial<SplitConfig>) => splitStep.run({
      config: splitConfigSchema.parse(config), values: { units: contract }, countTokens: count, model: { name: 'm', maxOutputTokens: 4000, contextWindow: 32_000 },
    } as unknown as StepRunContext<SplitConfig>);
    const packed = await run({ outputCap: 4000 });
    const chosen = await run({ outputCap: 4000, groups: 17 });
    if (packed.status !== 'succeeded' || chosen.status !== 'succeeded') throw new Error('split failed');
    const groupsOf = (o: unknown) => (o as { groups: { unit_ids: string[]; input_tokens: number }[] }).groups;
    expect(groupsOf(packed.output).length).not.toBe(17);
    const groups = groupsOf(chosen.output);
    expect(groups).toHaveLength(17);
    expect(groups.flatMap((g) => g.unit_ids)).toEqual(units.map((u) => u.id));
    // Balanced: no group holds more than twice the mean, but for a clause too big to share one.
    const mean = groups.reduce((n, g) => n + g.input_tokens, 0) / groups.length;
    for (const g of groups) if (g.unit_ids.length > 1) expect(g.input_tokens).toBeLessThan(2 * mean);
    expect(splitStep.summary(splitConfigSchema.parse({ groups: 17 }))[0]).toBe('17 groups, balanced by tokens');
  });

  it('derives group keys from content, so a retry regroups identically', () => {
    const a = groupUnits(units, plan, count);
    const b = groupUnits(toUnits(contract) as Unit[], plan, count);
    expect(b.map((g) => g.group_key)).toEqual(a.map((g) => g.group_key));
    expect(new Set(a.map((g) => g.group_key)).size).toBe(a.length);
    // A smaller cap means more, smaller groups.
    expect(groupUnits(units, { ...plan, cap: 2000 }, count).length).toBeGreaterThan(a.length);
  });

  it('rejects units without text', () => {
    expect(toUnits([{ id: 'a' }])).toBe('unit 1 has no text');
    expect(toUnits(42)).toContain('split needs');
  });
});
