import { stableStringify } from '../chain/hash.ts';
import type { RunMeta, TraceEvent } from '../trace/events.ts';
import { buildRunView, type StepView } from '../trace/replay.ts';
import { inspectRun } from './boundary.ts';
import { stepRegistry } from '../steps/index.ts';

/**
 * Two runs side by side, step by step: what each step output, whether it changed, the facts
 * that survived each boundary, tokens, latency and status. Typically a fork against its parent.
 */
export interface StepDiff {
  stepId: string;
  statusA: StepView['status'] | 'absent';
  statusB: StepView['status'] | 'absent';
  outputA: unknown;
  outputB: unknown;
  outputChanged: boolean;
  latencyA: number | null;
  latencyB: number | null;
  tokensA: number;
  tokensB: number;
  attemptsA: number;
  attemptsB: number;
  /** Facts that survived the boundaries this step produces, per run. */
  factsSurvivedA: number | null;
  factsSurvivedB: number | null;
  /** The part of factsSurvived that is figures, ids and references (not named conditions): what a numbers-only comparison counts. */
  figuresSurvivedA: number | null;
  figuresSurvivedB: number | null;
  /** Reused from a parent run (a fork's upstream): no call, no latency, no tokens of its own. */
  reusedA: boolean;
  reusedB: boolean;
}

export interface RunDiff {
  a: string;
  b: string;
  steps: StepDiff[];
  outputChanged: boolean;
}

const tokens = (v: StepView | undefined) => (v?.attempts ?? []).reduce((n, a) => n + (a.record.usage?.inputTokens ?? 0) + (a.record.usage?.outputTokens ?? 0), 0);

export function diffRuns(a: { meta: RunMeta; events: readonly TraceEvent[] }, b: { meta: RunMeta; events: readonly TraceEvent[] }): RunDiff {
  const viewA = buildRunView(a.meta, a.events, stepRegistry);
  const viewB = buildRunView(b.meta, b.events, stepRegistry);
  const factsA = inspectRun(a.meta, [...a.events]).boundaries;
  const factsB = inspectRun(b.meta, [...b.events]).boundaries;
  const survivedBy = (reports: typeof factsA, id: string, figuresOnly = false) => {
    const mine = reports.filter((r) => r.producer === id);
    return mine.length ? mine.reduce((n, r) => n + r.survival.survived.filter((f) => !figuresOnly || f.kind !== 'condition').length, 0) : null;
  };
  const reused = (events: readonly TraceEvent[]) => new Set(events.flatMap((e) => (e.type === 'step.finished' && e.reused ? [e.stepId] : [])));
  const reusedInA = reused(a.events);
  const reusedInB = reused(b.events);
  const ids = [...new Set([...viewA.steps.map((s) => s.stepId), ...viewB.steps.map((s) => s.stepId)])];
  const steps = ids.map((stepId): StepDiff => {
    const sa = viewA.steps.find((s) => s.stepId === stepId);
    const sb = viewB.steps.find((s) => s.stepId === stepId);
    return {
      stepId, statusA: sa?.status ?? 'absent', statusB: sb?.status ?? 'absent', outputA: sa?.output, outputB: sb?.output,
      outputChanged: stableStringify(sa?.output ?? null) !== stableStringify(sb?.output ?? null),
      latencyA: sa?.latencyMs ?? null, latencyB: sb?.latencyMs ?? null, tokensA: tokens(sa), tokensB: tokens(sb),
      attemptsA: sa?.attempts.length ?? 0, attemptsB: sb?.attempts.length ?? 0,
      factsSurvivedA: survivedBy(factsA, stepId), factsSurvivedB: survivedBy(factsB, stepId),
      figuresSurvivedA: survivedBy(factsA, stepId, true), figuresSurvivedB: survivedBy(factsB, stepId, true),
      reusedA: reusedInA.has(stepId), reusedB: reusedInB.has(stepId),
    };
  });
  return { a: a.meta.id, b: b.meta.id, steps, outputChanged: stableStringify(a.meta.output ?? null) !== stableStringify(b.meta.output ?? null) };
}
