import { BatchProgress } from './BatchProgress.tsx';
import { selectEvalProgress, useEvalStore } from './eval-store.ts';

// eval-actions brings the eval core: it is loaded already while a batch runs (it started it).
const cancel = () => void import('./eval-actions.ts').then((m) => m.cancelEval());

/**
 * A running batch, in the top bar whichever view is in front: its progress, a way back to the
 * Evaluate view, and Cancel (finished items are kept; Resume continues). Re-renders on
 * progress alone, at most 4 times a second; nothing shows when no batch runs.
 */
export function EvalTopbarStatus() {
  const running = useEvalStore(selectEvalProgress) !== null;
  if (!running) return null;
  return (
    <div className="topbar-eval" aria-label="Evaluation running" data-testid="topbar.eval">
      <button type="button" className="link-button" onClick={() => useEvalStore.getState().setViewOpen(true)} title="Show the Evaluate view" data-testid="topbar.eval.show">
        Evaluating
      </button>
      <BatchProgress testId="topbar.eval" compact />
      <button type="button" className="button small danger" onClick={cancel} data-testid="topbar.eval.cancel" title="Stop the evaluation: finished items are kept, and Resume continues it">
        Cancel
      </button>
    </div>
  );
}
