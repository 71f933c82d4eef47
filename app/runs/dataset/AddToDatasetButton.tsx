import { lazy, Suspense, useState } from 'react';
import type { RunMeta, TraceEvent } from '../../../src/trace/index.ts';

// Loaded when it opens: the replay itself never needs it.
const AddToDatasetDialog = lazy(() => import('./AddToDatasetDialog.tsx'));

/** The step the run ended in, as its last event says. */
function terminalOf(events: readonly TraceEvent[]): string | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e?.type === 'run.finished') return e.terminalStep;
  }
  return undefined;
}

/** "Add to dataset", at the end of the replay's step row (the header has no room to spare at 1024 px). */
export function AddToDatasetButton({ meta, events, disabled }: { meta: RunMeta; events: readonly TraceEvent[]; disabled: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="button small" data-testid="replay.addToDataset" disabled={disabled} title="Add this run to a dataset: its inputs, with the output you correct as what is expected" onClick={() => setOpen(true)}>
        Add to dataset
      </button>
      {open && (
        <Suspense fallback={null}>
          <AddToDatasetDialog meta={meta} terminalStep={terminalOf(events)} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
