import { useReactFlow } from '@xyflow/react';
import { lazy, Suspense } from 'react';
import type { Chain } from '../../src/chain/index.ts';
import { useEditorStore } from '../stores/editor-store.ts';

const EndpointNotice = lazy(() => import('../profiles/EndpointNotice.tsx'));
// The run budget's editor loads after first paint: the shell's first load is held under its size limit.
const BudgetSection = lazy(() => import('./BudgetSection.tsx').then((m) => ({ default: m.BudgetSection })));

/** Shown when nothing is selected: the chain's name, description and inputs. */
export function ChainPanel({ chain }: { chain: Chain }) {
  const { setChainName, setChainDescription, addInput, selectInput } = useEditorStore.getState();
  const { screenToFlowPosition } = useReactFlow();
  // A new input lands in view, left in the canvas and below its toolbar, one row per input.
  const addInputInView = () => {
    const rect = document.querySelector('[data-testid="canvas"]')?.getBoundingClientRect();
    if (!rect || rect.width === 0) return addInput();
    const row = chain.inputs.length % 5;
    return addInput(screenToFlowPosition({ x: rect.left + Math.min(60, rect.width * 0.05), y: rect.top + Math.min(140, rect.height * 0.2) + row * 72 }));
  };
  return (
    <div className="panel-body">
      <div className="panel-title">
        <span className="step-kind">Chain</span>
        <code className="muted">{chain.id}</code>
      </div>
      <div className="field">
        <label className="field-label" htmlFor="chain-name">
          Name
        </label>
        <input id="chain-name" className="input" data-testid="chain.name" value={chain.name} maxLength={200} onChange={(e) => setChainName(e.target.value)} />
      </div>
      <div className="field">
        <label className="field-label" htmlFor="chain-description">
          Description
        </label>
        <textarea id="chain-description" className="input" data-testid="chain.description" rows={3} value={chain.description ?? ''} onChange={(e) => setChainDescription(e.target.value)} />
      </div>
      <div className="field">
        <div className="field-label">Inputs</div>
        <ul className="plain-list">
          {chain.inputs.map((input) => (
            <li key={input.name}>
              <button type="button" className="link-button mono" onClick={() => selectInput(input.name)}>
                {input.name}
              </button>
              <span className="muted small"> {String(input.schema.type ?? 'any')} · {input.trust}</span>
            </li>
          ))}
        </ul>
        {chain.inputs.length === 0 && <div className="muted small">No inputs yet.</div>}
        <button type="button" className="button small" data-testid="chain.addInput" onClick={addInputInView}>
          Add input
        </button>
      </div>
      <Suspense fallback={null}>
        <BudgetSection chain={chain} />
      </Suspense>
      {chain.meta?.endpoint !== undefined && (
        <Suspense fallback={null}>
          <EndpointNotice chain={chain} />
        </Suspense>
      )}
      <p className="panel-hint">Select a step to edit it. Drag from a step's right handle to another step to make it read that output.</p>
    </div>
  );
}
