import { inspectBoundary, type BoundaryReport } from '../../src/inspect/index.ts';
import { factSurvival, type SurvivalReport } from '../../src/inspect/index.ts';
import type { RunMeta, TraceEvent } from '../../src/trace/index.ts';
import { buildRunView, type RunView } from '../../src/trace/index.ts';
import { getRunRepository } from '../persistence/connection.ts';
import { useEditorStore } from '../stores/editor-store.ts';
import { useRunStore } from '../stores/run-store.ts';
import { stepRegistry } from '../../src/steps/index.ts';

/**
 * Opening a stored run: the view, and for each boundary the fact-survival report that drives
 * the highlights, the lossy flag on the canvas edge and the summary line. Computed once when
 * the run opens (runs never change), never while it is live.
 */
export function boundaryReports(view: RunView): BoundaryReport[] {
  // A producer feeding several consumers is analysed once (as inspectRun does).
  const byProducer = new Map<string, SurvivalReport>();
  return view.boundaries.map((b) => {
    let survival = byProducer.get(b.producer);
    if (!survival) {
      survival = factSurvival(b.sources, b.intermediate);
      byProducer.set(b.producer, survival);
    }
    return inspectBoundary(b, {}, survival);
  });
}

/** Where a run with no boundaries opens: the step that failed, else the first. */
function focusIndex(view: RunView): number {
  return Math.max(0, view.steps.findIndex((s) => s.status === 'failed'));
}

export function openRunData(meta: RunMeta, events: readonly TraceEvent[], index?: number): void {
  const view = buildRunView(meta, events, stepRegistry);
  index ??= view.boundaries.length ? 0 : focusIndex(view);
  let reports: BoundaryReport[] = [];
  try {
    reports = boundaryReports(view);
  } catch (error) {
    // The replay still opens; only the fact highlights are missing, and the person is told.
    useEditorStore.getState().pushToast('error', `Fact survival could not be computed: ${(error as Error).message}`);
  }
  useRunStore.getState().openReplay({ meta, events, view, reports, index, live: false });
}

export async function openStoredReplay(runId: string, index?: number): Promise<boolean> {
  const repo = await getRunRepository();
  const [meta, events] = await Promise.all([repo.getRun(runId), repo.getEvents(runId)]);
  if (!meta) {
    useEditorStore.getState().pushToast('error', 'That run is no longer stored');
    return false;
  }
  const live = useRunStore.getState().live;
  if (live?.runId === runId && live.status === 'running') {
    // The run is still going in this tab: open its live view, which the runner keeps growing.
    useRunStore.getState().openReplay({ meta, events, view: buildRunView(meta, events, stepRegistry), reports: [], live: true });
    return true;
  }
  openRunData(meta, events, index);
  return true;
}
