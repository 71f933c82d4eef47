import type { RunMeta, TraceEvent } from '../trace/events.ts';

/**
 * Per-step metrics across a chain's runs (measure each step, not just the chain):
 * how often validation fails, how often a retry was needed, how often the run abstained or
 * escalated there, latency percentiles, tokens and cost.
 */
export interface StepMetrics {
  stepId: string;
  runs: number;
  attempts: number;
  /** Share of attempts that failed validation (invalid JSON, schema, truncated, refusal). */
  validationFailureRate: number;
  /** Share of the step's runs that needed more than one attempt. */
  retryRate: number;
  /** Share of the step's runs where the run abstained or escalated at this step. */
  abstainRate: number;
  escalateRate: number;
  failureRate: number;
  latencyP50: number;
  latencyP95: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))] as number;
}

interface Acc {
  runs: Set<string>;
  attempts: number;
  invalid: number;
  retried: Set<string>;
  abstained: number;
  escalated: number;
  failed: number;
  latencies: number[];
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}

const validationFailures = new Set(['invalid_json', 'schema_violation', 'truncated', 'refusal']);

export function stepMetrics(runs: readonly { meta: RunMeta; events: readonly TraceEvent[] }[]): Map<string, StepMetrics> {
  const acc = new Map<string, Acc>();
  const get = (id: string) => {
    let a = acc.get(id);
    if (!a) {
      a = { runs: new Set(), attempts: 0, invalid: 0, retried: new Set(), abstained: 0, escalated: 0, failed: 0, latencies: [], inputTokens: 0, outputTokens: 0, costUsd: 0 };
      acc.set(id, a);
    }
    return a;
  };
  for (const { meta, events } of runs) {
    const terminalStep = [...events].reverse().find((e): e is Extract<TraceEvent, { type: 'run.finished' }> => e.type === 'run.finished')?.terminalStep;
    const failedSteps: string[] = [];
    for (const e of events) {
      if (e.type === 'step.attempt') {
        const a = get(e.stepId);
        a.attempts++;
        if (e.record.failure && validationFailures.has(e.record.failure)) a.invalid++;
        if (e.attempt > 1) a.retried.add(meta.id);
        a.inputTokens += e.record.usage?.inputTokens ?? 0;
        a.outputTokens += e.record.usage?.outputTokens ?? 0;
        a.costUsd += e.record.costUsd ?? 0;
      } else if (e.type === 'step.finished' && e.status !== 'skipped' && !e.reused) {
        // A fork's reused steps did no work in this run: counting them would dilute the rates.
        const a = get(e.stepId);
        a.runs.add(meta.id);
        a.latencies.push(e.latencyMs);
        if (e.status === 'failed') {
          a.failed++;
          failedSteps.push(e.stepId);
        }
      }
    }
    // Where a run abstained or escalated: the terminal it reached, or the step whose failure policy ended it.
    const at = meta.status === 'abstained' || meta.status === 'escalated' ? (terminalStep ?? failedSteps.at(-1)) : undefined;
    if (at && meta.status === 'abstained') get(at).abstained++;
    if (at && meta.status === 'escalated') get(at).escalated++;
  }
  const out = new Map<string, StepMetrics>();
  for (const [stepId, a] of acc) {
    const n = Math.max(1, a.runs.size);
    out.set(stepId, {
      stepId, runs: a.runs.size, attempts: a.attempts,
      validationFailureRate: a.attempts ? a.invalid / a.attempts : 0,
      retryRate: a.retried.size / n, abstainRate: a.abstained / n, escalateRate: a.escalated / n, failureRate: a.failed / n,
      latencyP50: percentile(a.latencies, 50), latencyP95: percentile(a.latencies, 95),
      inputTokens: a.inputTokens, outputTokens: a.outputTokens, costUsd: a.costUsd,
    });
  }
  return out;
}
