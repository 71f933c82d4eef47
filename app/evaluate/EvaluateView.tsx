import { useEffect } from 'react';
import { refreshEvalLists, showEval } from './eval-actions.ts';
import { EvalResults } from './EvalResults.tsx';
import { EvalSetup } from './EvalSetup.tsx';
import { useEvalStore } from './eval-store.ts';

/**
 * Evaluate: compare designs over one dataset. A view beside the designer, not a dialog over
 * it: what is ticked and chosen lives in the eval store (eval-store.ts), so going to the
 * designer and back keeps it, and a running batch shows in the top bar from anywhere. Pick a
 * stored dataset (or import a `.dataset.jsonl`), tick the chains, optionally their controls,
 * see the estimated bill and each baseline's prompt, run, and read one table; a row opens its
 * items, and an item its run in the designer's replay.
 */
export default function EvaluateView() {
  useEffect(() => {
    // The latest batch's table rather than nothing (after a reload too).
    void refreshEvalLists().then(() => {
      const { shown, evals } = useEvalStore.getState();
      if (!shown && evals[0]) void showEval(evals[0].id);
    });
  }, []);
  return (
    <section className="evaluate-view" aria-label="Evaluate designs" data-testid="eval.view" data-covers-designer="">
      <header className="evaluate-head">
        <h2>Evaluate designs</h2>
        <p className="muted small">Run chains and their controls over one dataset and read one table: accuracy with its noise, latency, tokens, calls and spend a month.</p>
        <button type="button" className="button small" data-testid="eval.back" onClick={() => useEvalStore.getState().setViewOpen(false)}>
          Back to the designer
        </button>
      </header>
      <div className="evaluate-body">
        <EvalSetup />
        <EvalResults />
      </div>
    </section>
  );
}
