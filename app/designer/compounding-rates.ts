import type { StepRate } from '../../src/chain/index.ts';
import { chainEdges, parseStep } from '../../src/chain/index.ts';
import type { Chain } from '../../src/chain/index.ts';
import type { RunInspection } from '../../src/inspect/index.ts';
import type { StepMetrics } from '../../src/inspect/index.ts';
import type { StepRegistry } from '../../src/steps/index.ts';
import { canvasRegistry } from './canvas-registry.ts';

/**
 * The per-step rates behind the compounding estimate, with where each came from:
 * the error rate is observed (validation failures across stored runs) when the step has run,
 * else assumed at 5%; the catch rate is assumed from what checks the output (a gate reading it
 * catches 80%, a schema alone 30%); a retry after a caught error succeeds 95% of the time when the
 * step retries at all. A step that failed outright in a stored run counts as an error too
 * (the larger of the two observed rates). What the boundary inspector found is added as an
 * error no check sees: the share of stored runs in which a handoff from the step was lossy
 * (well-formed, but missing the facts the next step was asked for). Every figure can be
 * overridden in the panel.
 */
export const ASSUMED = { errorRate: 0.05, gateCatch: 0.8, schemaCatch: 0.3, retrySuccess: 0.95 } as const;

export interface RateRow extends StepRate {
  name: string;
  errorSource: 'observed' | 'assumed';
  /** Attempts behind an observed error rate. */
  attempts: number;
  /** Share of its stored runs in which the step failed (after its retries); 0 without runs. */
  failureRate: number;
  checkedBy: string[];
  uncaughtRate: number;
  /** Stored runs with a handoff from this step, and how many of those were lossy. */
  handoffs: { runs: number; lossy: number };
}

/** Per producing step: in how many inspected runs it handed data on, and in how many a handoff was lossy. */
export type LossCounts = ReadonlyMap<string, { runs: number; lossy: number }>;

/** Counts lossy handoffs per producing step over stored runs' inspections (a run counts once per step). */
export function lossCounts(inspections: readonly RunInspection[]): Map<string, { runs: number; lossy: number }> {
  const counts = new Map<string, { runs: number; lossy: number }>();
  for (const run of inspections) {
    const byProducer = new Map<string, boolean>();
    for (const b of run.boundaries) byProducer.set(b.producer, (byProducer.get(b.producer) ?? false) || b.lossy);
    for (const [producer, lossy] of byProducer) {
      const c = counts.get(producer) ?? { runs: 0, lossy: 0 };
      counts.set(producer, { runs: c.runs + 1, lossy: c.lossy + (lossy ? 1 : 0) });
    }
  }
  return counts;
}

export function defaultRates(chain: Chain, metrics?: ReadonlyMap<string, StepMetrics>, registry: StepRegistry = canvasRegistry, losses?: LossCounts): RateRow[] {
  const byId = new Map(chain.steps.map((s) => [s.id, s]));
  const gates = new Map<string, string[]>();
  for (const e of chainEdges(chain, registry)) {
    const reader = byId.get(e.target);
    if (e.kind === 'data' && reader && registry.get(reader.kind)?.group === 'Check') gates.set(e.source, [...(gates.get(e.source) ?? []), reader.name || reader.id]);
  }
  return chain.steps.flatMap((step): RateRow[] => {
    const parsed = parseStep(step, registry);
    const produces = parsed?.def ?? registry.get(step.kind);
    if (produces?.produces.by !== 'model') return [];
    // A config that does not parse (mid-edit) claims no schema and no retries.
    const config = parsed?.def.produces.by === 'model' ? parsed.def.produces.contract(parsed.config) : { retries: 0, outputSchema: null };
    const observed = metrics?.get(step.id);
    const checkedBy = [...(config.outputSchema ? ['JSON Schema'] : []), ...(gates.get(step.id) ?? []).map((g) => `gate "${g}"`)];
    const catchRate = gates.has(step.id) ? ASSUMED.gateCatch : config.outputSchema ? ASSUMED.schemaCatch : 0;
    const seen = !!observed && observed.attempts > 0;
    const handoffs = losses?.get(step.id) ?? { runs: 0, lossy: 0 };
    return [{
      stepId: step.id,
      name: step.name || step.id,
      errorRate: seen ? Math.max(observed.validationFailureRate, observed.failureRate) : ASSUMED.errorRate,
      errorSource: seen ? 'observed' : 'assumed',
      attempts: observed?.attempts ?? 0,
      failureRate: observed?.failureRate ?? 0,
      uncaughtRate: handoffs.runs > 0 ? handoffs.lossy / handoffs.runs : 0,
      handoffs,
      catchRate,
      retrySuccess: (config.retries ?? 0) > 0 && catchRate > 0 ? ASSUMED.retrySuccess : 0,
      checkedBy,
    }];
  });
}
