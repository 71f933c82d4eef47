import { parseStep, resolveRef } from '../../src/chain/index.ts';
import type { Chain } from '../../src/chain/index.ts';
import { stepRegistry } from '../../src/steps/index.ts';
import type { RunMeta, TraceEvent } from '../../src/trace/index.ts';
import type { RunView, StepView } from '../../src/trace/index.ts';

/**
 * Figures the replay shows that the trace holds but the run view does not sum: tokens and
 * cost per step, map units as they finished, steps a fork reused, and the words for why an
 * attempt failed. Malformed (the output broke its contract) and endpoint failures (the call
 * itself failed) are named differently on purpose: neither is "lossy".
 */
export const MALFORMED = new Set(['invalid_json', 'schema_violation', 'truncated', 'refusal', 'no_tool_call', 'tool_call']);

const failureWords: Record<string, string> = {
  invalid_json: 'malformed: not JSON',
  schema_violation: 'malformed: schema violation',
  truncated: 'malformed: cut off at the output cap',
  refusal: 'refused',
  no_tool_call: 'malformed: no call to the required tool',
  tool_call: 'malformed: called a tool instead of answering',
  provider_error: 'endpoint error',
};

export function failureLabel(failure: string | undefined): string {
  return failure ? (failureWords[failure] ?? failure) : 'passed';
}

export function stepUsage(step: StepView): { tokens: number; costUsd: number | undefined } {
  let tokens = 0;
  let costUsd: number | undefined;
  for (const { record } of step.attempts) {
    tokens += (record.usage?.inputTokens ?? 0) + (record.usage?.outputTokens ?? 0);
    if (record.costUsd !== undefined) costUsd = (costUsd ?? 0) + record.costUsd;
  }
  return { tokens, costUsd };
}

export function malformedCount(step: StepView | undefined): number {
  return step ? step.attempts.filter((a) => a.record.failure && MALFORMED.has(a.record.failure)).length : 0;
}

export interface UnitView {
  unitId: string;
  index: number;
  /**
   * `running`: attempted, no result yet; `waiting`: not attempted yet (queued behind the
   * concurrency limit, in flight, or never reached in an interrupted run).
   */
  status: 'ok' | 'error' | 'running' | 'waiting';
  attempts: number;
  latencyMs: number;
  tokens: number;
  costUsd?: number;
  error?: string;
}

/** Whether steps of this kind fan out into units (a map): the timeline shows their units. */
export function fansOut(kind: string): boolean {
  return stepRegistry.get(kind)?.units !== undefined;
}

/**
 * The unit ids a fan-out step will produce, from what it reads, as its kind names them (a map:
 * its collection and unit id field), so units not yet attempted show too. Empty when unknown.
 */
export function plannedUnitIds(meta: RunMeta, view: RunView, stepId: string): string[] {
  const step = (meta.chain as Chain).steps?.find((s) => s.id === stepId);
  const parsed = step ? parseStep(step, stepRegistry) : null;
  const units = parsed?.def.units;
  if (!parsed || !units) return [];
  const sources = { inputs: meta.inputs, outputs: new Map(view.steps.map((s) => [s.stepId, s.output])) };
  const values: Record<string, unknown> = {};
  for (const [name, ref] of Object.entries(parsed.def.bindings(parsed.config))) {
    try {
      values[name] = resolveRef(ref, sources);
    } catch {
      // Not produced yet (or not resolvable): the kind sees it as missing.
    }
  }
  return units.ids(parsed.config, values) ?? [];
}

/** A map step's units in unit order: finished ones from `step.unit`, the rest from their attempts or the plan. */
export function unitsOf(events: readonly TraceEvent[], stepId: string, planned: readonly string[] = []): UnitView[] {
  const units = new Map<string, UnitView>(planned.map((unitId, index) => [unitId, { unitId, index, status: 'waiting', attempts: 0, latencyMs: 0, tokens: 0 }]));
  for (const e of events) {
    if (e.type === 'step.attempt' && e.stepId === stepId && e.unit !== undefined) {
      const u = units.get(e.unit) ?? { unitId: e.unit, index: Number.MAX_SAFE_INTEGER, status: 'running', attempts: 0, latencyMs: 0, tokens: 0 };
      const status = u.status === 'waiting' ? 'running' : u.status;
      const r = e.record;
      units.set(e.unit, {
        ...u, status, attempts: Math.max(u.attempts, e.attempt), latencyMs: u.latencyMs + r.latencyMs,
        tokens: u.tokens + (r.usage?.inputTokens ?? 0) + (r.usage?.outputTokens ?? 0),
        costUsd: r.costUsd === undefined ? u.costUsd : (u.costUsd ?? 0) + r.costUsd,
      });
    } else if (e.type === 'step.unit' && e.stepId === stepId) {
      const u = units.get(e.unitId) ?? { unitId: e.unitId, index: e.index, status: 'running', attempts: 0, latencyMs: 0, tokens: 0 };
      units.set(e.unitId, { ...u, index: e.index, status: e.status, error: e.error ? `${e.error.code}: ${e.error.message}` : undefined });
    }
  }
  return [...units.values()].sort((a, b) => a.index - b.index);
}

/** Steps a fork took from its parent run rather than running again. */
export function reusedSteps(events: readonly TraceEvent[]): ReadonlySet<string> {
  return new Set(events.flatMap((e) => (e.type === 'step.finished' && e.reused ? [e.stepId] : [])));
}
