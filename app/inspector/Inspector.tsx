import { lazy, Suspense, useEffect } from 'react';
import { useEditorStore } from '../stores/editor-store.ts';
import { selectChain, selectSelectedEdgeIds, selectSelectedInput, selectSelectedStep, selectSelectedStepIds } from '../stores/selectors.ts';

// The step editor and its field widgets load with the first selection, not at start-up
// (the first selection also fetches Monaco, so this adds no noticeable wait); so do the
// input, multi-selection and edge (contract card) panels.
const StepPanel = lazy(() => import('./StepPanel.tsx').then((m) => ({ default: m.StepPanel })));
const InputPanel = lazy(() => import('./InputPanel.tsx').then((m) => ({ default: m.InputPanel })));
const SelectionPanel = lazy(() => import('../designer/SelectionPanel.tsx').then((m) => ({ default: m.SelectionPanel })));
const EdgePanel = lazy(() => import('../designer/EdgePanel.tsx'));
// The problems come from the checks loaded after first paint (designer/analysis-subscriber.ts)
// for a chain storage opens after it: the list (and the egress answers it reads) loads beside them.
const ProblemsList = lazy(() => import('./ProblemsList.tsx').then((m) => ({ default: m.ProblemsList })));
// The chain's panel shows once storage has opened a chain, after first paint; it starts loading
// as soon as the inspector has painted, so it is there by then.
const loadChainPanel = () => import('./ChainPanel.tsx');
const ChainPanel = lazy(() => loadChainPanel().then((m) => ({ default: m.ChainPanel })));

const loading = <div className="panel-body muted">Loading…</div>;

/** The right-hand panel: the selected step, steps, edge, input or the chain, and the live problems. */
export function Inspector() {
  const chain = useEditorStore(selectChain);
  const step = useEditorStore(selectSelectedStep);
  const stepIds = useEditorStore(selectSelectedStepIds);
  const edgeIds = useEditorStore(selectSelectedEdgeIds);
  const inputName = useEditorStore(selectSelectedInput);
  const input = inputName ? chain?.inputs.find((i) => i.name === inputName) : undefined;
  const edgeId = edgeIds.length === 1 && stepIds.length === 0 ? edgeIds[0] : undefined;
  useEffect(() => void loadChainPanel(), []);
  return (
    <aside className="inspector" data-testid="inspector">
      <div className="inspector-scroll">
        <Suspense fallback={loading}>
          {!chain ? (
            <div className="panel-body muted">No chain open.</div>
          ) : step ? (
            <StepPanel key={step.id} chain={chain} step={step} />
          ) : stepIds.length > 1 ? (
            <SelectionPanel ids={stepIds} />
          ) : input ? (
            <InputPanel key={input.name} chain={chain} input={input} />
          ) : edgeId ? (
            <EdgePanel chain={chain} edgeId={edgeId} />
          ) : (
            <ChainPanel chain={chain} />
          )}
        </Suspense>
      </div>
      <Suspense fallback={<section className="problems" aria-label="Problems" aria-busy="true" />}>
        <ProblemsList />
      </Suspense>
    </aside>
  );
}
