import type { Plan, PlanJob } from '../planner/index.ts';

/** `seamscope plan` without --json: a header, one row per granularity (the recommended one starred), why, warnings. */
const int = (n: number) => Math.round(n).toLocaleString('en-US');
const secs = (s: number | null) => (s === null ? 'n/a' : s < 600 ? `${Math.round(s)} s` : `${(s / 60).toFixed(1)} min`);
const mark = (ok: boolean) => (ok ? '' : ' ✗');

export function planTable(plan: Plan, job: PlanJob, stepId: string | null, splitGroups: number | null): string[] {
  const header = [
    `plan${stepId ? ` for split step "${stepId}"` : ''}: ${int(plan.units)} units, ${int(plan.sourceTokens)} source tokens, ${int(job.sharedTokens)} shared per call`,
    `writer: cap ${int(job.writer.cap)} (plan for ${Math.round(job.headroom * 100)}%), window ${int(job.writer.window)}, ${job.writer.tokensPerSecond} tokens/s; ${(job.failRate * 100).toFixed(2)}% failure per call`,
    `one pass: ${int(plan.onePass.inputTokens)} in, ${int(plan.onePass.outputTokens)} out${plan.onePass.fitsCap && plan.onePass.fitsWindow ? ' — fits one call' : ` — ${plan.onePass.fitsCap ? 'past the window' : 'past the output cap'}`}`,
  ];
  const columns = ['groups', 'seams', 'dup shared', 'out/group', 'in/call', 'total in', 'total out', 'cost $', 'P(fail)', 'parallel', 'sequential', 'map-reduce', 'two-pass', 'retry unit'];
  const rows = plan.granularities.map((g) => [
    `${g.groups}${g.groups === plan.recommended ? '*' : ''}`, int(g.seams), int(g.duplicatedSharedTokens),
    `${int(g.outputTokensPerGroup)}${mark(g.withinHeadroom)}`, `${int(g.inputTokensPerCall)}${mark(g.fitsWindow)}`,
    int(g.totalInputTokens), int(g.totalOutputTokens), g.costUsd.toFixed(2), `${(g.failureProbability * 100).toFixed(1)}%`,
    secs(g.wallClock.parallelS), `${secs(g.wallClock.sequentialS)}${g.sequentialPassesWindowAtCall ? ` (window at call ${g.sequentialPassesWindowAtCall})` : ''}`,
    secs(g.wallClock.hierarchicalS), secs(g.wallClock.twoPassS), `≤${g.largestGroupUnits} units`,
  ]);
  const widths = columns.map((c, i) => Math.max(c.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd();
  return [
    ...header,
    '',
    line(columns),
    ...rows.map(line),
    '',
    `recommended: ${plan.recommended ?? 'none'} — ${plan.why}`,
    ...(splitGroups !== null ? [`the split step as configured makes ${splitGroups} groups (it fills each group up to its limits; the planner balances them)`] : []),
    `pairs: ${int(plan.pairs.whole)} in the whole, ${int(plan.pairs.withinGroups)} within the recommended groups`,
    ...plan.warnings.map((w) => `warning: ${w}`),
    '✗: over the cap’s headroom (out/group) or the window (in/call). * recommended.',
  ];
}
