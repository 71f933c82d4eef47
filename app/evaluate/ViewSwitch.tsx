import { selectEvalViewOpen, useEvalStore } from './eval-store.ts';

const show = (open: boolean) => useEvalStore.getState().setViewOpen(open);

/** Designer | Evaluate in the top bar: two views of the same tab, each kept as it was left. */
export function ViewSwitch() {
  const evaluating = useEvalStore(selectEvalViewOpen);
  return (
    <nav className="view-switch" aria-label="Views">
      <button type="button" className="view-switch-button" aria-pressed={!evaluating} data-testid="view.designer" onClick={() => show(false)} title="Sketch, run and replay the open chain">
        Designer
      </button>
      <button type="button" className="view-switch-button" aria-pressed={evaluating} data-testid="eval.open" onClick={() => show(true)} title="Compare chains over a dataset: accuracy, latency, tokens, calls and spend a month">
        Evaluate
      </button>
    </nav>
  );
}
