import { runBudgetSchema, type RunBudget } from '../chain/schema.ts';
import type { OptionTable } from './args.ts';

/** The CLI's budget flags and the RunBudget limit each sets (time and money in people's units). */
const FLAGS = {
  'max-steps': { key: 'maxSteps', scale: 1 },
  'max-requests': { key: 'maxRequests', scale: 1 },
  'max-tokens': { key: 'maxTokens', scale: 1 },
  'max-cost': { key: 'maxCostUsd', scale: 1 },
  'max-time': { key: 'maxTimeMs', scale: 1000 },
} as const satisfies Record<string, { key: keyof RunBudget; scale: number }>;

/** The budget flags as options of `run`: each takes a value. */
export const budgetOptions: OptionTable = Object.fromEntries(Object.keys(FLAGS).map((flag) => [flag, 'string']));

export const budgetUsage = '[--max-steps N] [--max-requests N] [--max-tokens N] [--max-cost USD] [--max-time SECONDS]';

/** The run budget the command line asks for; a bad value is an error naming its flag. */
export function budgetFromArgs(options: Record<string, string | true>): RunBudget | undefined {
  const budget: Record<string, number> = {};
  for (const [flag, { key, scale }] of Object.entries(FLAGS)) {
    const raw = options[flag];
    if (raw === undefined) continue;
    const value = typeof raw === 'string' && /^\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw) * scale : Number.NaN;
    budget[key] = key === 'maxCostUsd' ? value : Math.round(value);
    const check = runBudgetSchema.safeParse(budget);
    if (!Number.isFinite(value) || !check.success) throw new Error(`--${flag} must be a positive number (got "${String(raw)}")`);
  }
  return Object.keys(budget).length ? (budget as RunBudget) : undefined;
}
