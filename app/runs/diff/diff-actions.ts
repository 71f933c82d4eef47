import { diffRuns } from '../../../src/inspect/index.ts';
import type { RunMeta } from '../../../src/trace/index.ts';
import { getRunRepository } from '../../persistence/connection.ts';
import { useRunStore } from '../../stores/run-store.ts';

/**
 * Compares the open run with another stored run, step by step. The earlier run is A (for a
 * fork, its parent), the later B, so the table always reads "what changed since".
 */
export async function compareWith(otherId: string): Promise<void> {
  const open = useRunStore.getState().replay;
  if (!open) return;
  const repo = await getRunRepository();
  const [other, otherEvents] = await Promise.all([repo.getRun(otherId), repo.getEvents(otherId)]);
  if (!other) throw new Error('that run is no longer stored');
  const here = { meta: open.meta, events: open.events };
  const there = { meta: other, events: otherEvents };
  const [a, b] = other.startedAt <= open.meta.startedAt ? [there, here] : [here, there];
  const diff = diffRuns(a, b);
  // The person may have opened another run while this one was loading.
  if (useRunStore.getState().replay?.meta.id !== open.meta.id) return;
  useRunStore.getState().setCompare({ a: a.meta as RunMeta, b: b.meta as RunMeta, diff });
}
