import { clearBoundaryLabel, setBoundaryLabel, type Boundary, type SufficiencyVerdict } from '../../src/trace/index.ts';
import { getRunRepository } from '../persistence/connection.ts';
import { useEditorStore } from '../stores/editor-store.ts';
import { useRunStore } from '../stores/run-store.ts';

/**
 * Stores a person's sufficiency label for one boundary (or withdraws it with `null`). Read from
 * the stored run, not the open view, so two tabs labelling different boundaries of one run do
 * not erase each other's labels; a label that does not validate changes nothing stored.
 */
export async function labelBoundary(runId: string, boundary: Pick<Boundary, 'id' | 'producer' | 'consumer'>, verdict: SufficiencyVerdict | null, note: string): Promise<boolean> {
  const fail = (message: string) => {
    useEditorStore.getState().pushToast('error', `The label was not saved: ${message}`);
    return false;
  };
  try {
    const repo = await getRunRepository();
    const meta = await repo.getRun(runId);
    if (!meta) return fail('the run is no longer stored');
    let labels;
    if (verdict === null) labels = clearBoundaryLabel(meta, boundary.id);
    else {
      const set = setBoundaryLabel(meta, { boundaryId: boundary.id, producer: boundary.producer, consumer: boundary.consumer, verdict, note, at: Date.now() });
      if (!set.ok) return fail(set.message);
      labels = set.labels;
    }
    await repo.updateRun(runId, { labels });
    useRunStore.getState().setRunLabels(runId, labels);
    return true;
  } catch (error) {
    return fail((error as Error).message);
  }
}
