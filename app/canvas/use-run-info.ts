import { useMemo } from 'react';
import { useEditorStore } from '../stores/editor-store.ts';
import { useRunStore } from '../stores/run-store.ts';
import { selectChain, selectCurrentBoundary, selectFocusStepId, selectLive, selectReplay } from '../stores/selectors.ts';
import type { Highlight, StepRunInfo } from './flow-elements.ts';

function endpointText(error: { status: number | null; message: string } | undefined): string | undefined {
  if (!error) return undefined;
  return error.status ? `HTTP ${error.status}: ${error.message}` : error.message;
}

/** Step statuses for the canvas: the replayed run while replay is open, else the live run. */
export function useRunInfo(): ReadonlyMap<string, StepRunInfo> {
  const chainId = useEditorStore(selectChain)?.id;
  const live = useRunStore(selectLive);
  const replay = useRunStore(selectReplay);
  // A live replay shows the live run's statuses (with streamed text); a stored one its own.
  const view = replay && replay.meta.chainId === chainId && !replay.live ? replay.view : undefined;
  return useMemo(() => {
    const map = new Map<string, StepRunInfo>();
    if (view) {
      for (const s of view.steps) {
        const lastError = [...s.attempts].reverse().find((a) => a.record.failure === 'provider_error')?.record;
        map.set(s.stepId, {
          status: s.status,
          failure: s.failure ? `${s.failure.code}: ${s.failure.message}` : undefined,
          endpointError: lastError ? endpointText({ status: lastError.status ?? null, message: lastError.errors.join('; ') }) : undefined,
        });
      }
    } else if (live && live.chainId === chainId) {
      for (const [id, s] of Object.entries(live.steps)) {
        const partial = s.status === 'running' ? live.partial[id]?.text.slice(-240) : undefined;
        map.set(id, { status: s.status, failure: s.failure ? `${s.failure.code}: ${s.failure.message}` : undefined, endpointError: endpointText(s.endpointError), partial });
      }
    }
    return map;
  }, [view, live, chainId]);
}

/** The current replay boundary (or, in a run without boundaries, the step) as canvas highlights. */
export function useHighlight(): Highlight | null {
  const boundary = useRunStore(selectCurrentBoundary);
  const step = useRunStore(selectFocusStepId);
  return useMemo(() => {
    if (boundary) return { producer: boundary.producer, consumer: boundary.consumer, edgeId: boundary.id, sources: boundary.sources.map((s) => s.name) };
    return step ? { producer: step, consumer: '', edgeId: '', sources: [] } : null;
  }, [boundary, step]);
}
