import { lazy, Suspense, useState } from 'react';

// The dialog brings the eval core, the engine and the tokenizer: loaded when it first opens.
const EvaluateDialog = lazy(() => import('./EvaluateDialog.tsx'));

/** "Evaluate" in the top bar: compare designs over a dataset. */
export function EvaluateButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="button" data-testid="eval.open" onClick={() => setOpen(true)} title="Compare chains over a dataset: accuracy, latency, tokens, calls and spend a month">
        Evaluate
      </button>
      {open && (
        <Suspense fallback={null}>
          <EvaluateDialog onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
