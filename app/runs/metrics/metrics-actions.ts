import { stepMetrics } from '../../../src/inspect/index.ts';
import type { TraceEvent } from '../../../src/trace/index.ts';
import { getRunRepository } from '../../persistence/connection.ts';
import { useEditorStore } from '../../stores/editor-store.ts';
import { useRunStore } from '../../stores/run-store.ts';
import { selectChain } from '../../stores/selectors.ts';

/** The newest runs only: enough for rates and percentiles, bounded in what it reads. */
const MAX_RUNS = 100;

/**
 * A fork's trace carries its reused steps as finished with no attempt (and no latency of
 * their own); counting them would add zero-latency runs to every upstream step.
 */
function withoutReused(events: readonly TraceEvent[]): TraceEvent[] {
  return events.filter((e) => !(e.type === 'step.finished' && e.reused));
}

/** Recomputes the open chain's per-step metrics from its stored runs (runs still going are left out). */
export async function refreshMetrics(chainId: string): Promise<void> {
  const repo = await getRunRepository();
  const metas = (await repo.listRuns({ chainId })).filter((m) => m.status !== 'running').slice(0, MAX_RUNS);
  const runs = await Promise.all(metas.map(async (meta) => ({ meta, events: withoutReused(await repo.getEvents(meta.id)) })));
  if (selectChain(useEditorStore.getState())?.id !== chainId) return;
  useRunStore.getState().setMetrics({ chainId, runs: runs.length, byStep: stepMetrics(runs) });
}
