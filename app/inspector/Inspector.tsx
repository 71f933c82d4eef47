import { lazy, Suspense } from 'react';
import { useEditorStore } from '../stores/editor-store.ts';
import { selectChain, selectSelectedInput, selectSelectedStep } from '../stores/selectors.ts';
import { ChainPanel } from './ChainPanel.tsx';
import { InputPanel } from './InputPanel.tsx';
import { ProblemsList } from './ProblemsList.tsx';

// The step editor and its field widgets load with the first selection, not at start-up
// (the first selection also fetches Monaco, so this adds no noticeable wait).
const StepPanel = lazy(() => import('./StepPanel.tsx').then((m) => ({ default: m.StepPanel })));

/** The right-hand panel: the selected step, input or the chain, and the live problems. */
export function Inspector() {
  const chain = useEditorStore(selectChain);
  const step = useEditorStore(selectSelectedStep);
  const inputName = useEditorStore(selectSelectedInput);
  const input = inputName ? chain?.inputs.find((i) => i.name === inputName) : undefined;
  return (
    <aside className="inspector" data-testid="inspector">
      <div className="inspector-scroll">
        {!chain ? (
          <div className="panel-body muted">No chain open.</div>
        ) : step ? (
          <Suspense fallback={<div className="panel-body muted">Loading…</div>}>
            <StepPanel key={step.id} chain={chain} step={step} />
          </Suspense>
        ) : input ? (
          <InputPanel key={input.name} chain={chain} input={input} />
        ) : (
          <ChainPanel chain={chain} />
        )}
      </div>
      <ProblemsList />
    </aside>
  );
}
