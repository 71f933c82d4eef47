import type { Chain } from '../chain/schema.ts';
import { stepRegistry, type StepRegistry } from '../steps/index.ts';
import type { TraceEvent } from '../trace/events.ts';
import { skippedSteps } from './skipped.ts';

/** What became of one output step of a run. */
export type RunOutputState = 'returned' | 'empty' | 'skipped' | 'failed' | 'not run';

export interface RunOutput {
  stepId: string;
  name: string;
  state: RunOutputState;
  /** What it returned, when it returned something. */
  value?: unknown;
  /** Why it has no value, in words (the route taken instead, the failure, or that the run stopped first). */
  reason?: string;
}

/**
 * Each output step of the chain a run used, in chain order, with what it returned or why it has
 * nothing: a chain with several outputs shows every one, so a branch that never delivered is said
 * beside the one that did, never folded into one "succeeded". Built from the chain and trace alone.
 *
 * @example
 * runOutputs(meta.chain, events); // [{ stepId: 'billing_reply', state: 'returned', value: '…' }, { stepId: 'tech_reply', state: 'skipped', reason: 'route read "billing" …' }]
 */
export function runOutputs(chain: Chain | undefined, events: readonly TraceEvent[], registry: StepRegistry = stepRegistry): RunOutput[] {
  if (!chain?.steps) return [];
  // An output is a terminal that sends nothing out (the engine's runEnd uses the same rule).
  const outputs = chain.steps.filter((s) => {
    const def = registry.get(s.kind);
    return Boolean(def?.terminal && !def.egress);
  });
  if (outputs.length === 0) return [];
  const finished = new Map<string, Extract<TraceEvent, { type: 'step.finished' }>>();
  for (const e of events) if (e.type === 'step.finished') finished.set(e.stepId, e);
  const wanted = new Set(outputs.map((s) => s.id));
  const skipped = new Map(
    events.some((e) => e.type === 'step.finished' && e.status === 'skipped' && wanted.has(e.stepId))
      ? skippedSteps(chain, events, registry).map((s) => [s.stepId, s.reason])
      : [],
  );
  return outputs.map((s) => {
    const base = { stepId: s.id, name: s.name || s.id };
    const done = finished.get(s.id);
    if (!done) return { ...base, state: 'not run', reason: 'the run ended before it was reached' };
    if (done.status === 'skipped') return { ...base, state: 'skipped', reason: skipped.get(s.id) ?? 'skipped' };
    if (done.status !== 'succeeded') return { ...base, state: 'failed', reason: done.failure?.message ?? done.status };
    if (done.output === undefined) return { ...base, state: 'empty', reason: 'what it reads held no value' };
    return { ...base, state: 'returned', value: done.output };
  });
}
