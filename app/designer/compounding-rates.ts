import type { StepRate } from '../../src/chain/compounding.ts';
import { chainEdges } from '../../src/chain/graph.ts';
import type { Chain } from '../../src/chain/schema.ts';
import type { StepMetrics } from '../../src/inspect/metrics.ts';
import type { StepRegistry } from '../../src/steps/registry.ts';
import { canvasRegistry } from './canvas-registry.ts';

/**
 * The per-step rates behind the compounding estimate (seed 002), with where each came from:
 * the error rate is observed (validation failures across stored runs) when the step has run,
 * else assumed at 5%; the catch rate is assumed from what checks the output (a gate reading it
 * catches 80%, a schema alone 30%); a retry after a caught error succeeds 95% of the time when the
 * step retries at all. Every figure can be overridden in the panel.
 */
export const ASSUMED = { errorRate: 0.05, gateCatch: 0.8, schemaCatch: 0.3, retrySuccess: 0.95 } as const;

export interface RateRow extends StepRate {
  name: string;
  errorSource: 'observed' | 'assumed';
  /** Attempts behind an observed error rate. */
  attempts: number;
  checkedBy: string[];
}

export function defaultRates(chain: Chain, metrics?: ReadonlyMap<string, StepMetrics>, registry: StepRegistry = canvasRegistry): RateRow[] {
  const byId = new Map(chain.steps.map((s) => [s.id, s]));
  const gates = new Map<string, string[]>();
  for (const e of chainEdges(chain, registry)) {
    const reader = byId.get(e.target);
    if (e.kind === 'data' && reader && registry.get(reader.kind)?.group === 'Check') gates.set(e.source, [...(gates.get(e.source) ?? []), reader.name || reader.id]);
  }
  return chain.steps.flatMap((step): RateRow[] => {
    const def = registry.get(step.kind);
    if (def?.group !== 'Model') return [];
    const parsed = def.config.safeParse(step.config);
    const config = (parsed.success ? parsed.data : {}) as { retries?: number; outputSchema?: unknown };
    const observed = metrics?.get(step.id);
    const checkedBy = [...(config.outputSchema ? ['JSON Schema'] : []), ...(gates.get(step.id) ?? []).map((g) => `gate "${g}"`)];
    const catchRate = gates.has(step.id) ? ASSUMED.gateCatch : config.outputSchema ? ASSUMED.schemaCatch : 0;
    return [{
      stepId: step.id,
      name: step.name || step.id,
      errorRate: observed && observed.attempts > 0 ? observed.validationFailureRate : ASSUMED.errorRate,
      errorSource: observed && observed.attempts > 0 ? 'observed' : 'assumed',
      attempts: observed?.attempts ?? 0,
      catchRate,
      retrySuccess: (config.retries ?? 0) > 0 && catchRate > 0 ? ASSUMED.retrySuccess : 0,
      checkedBy,
    }];
  });
}
