import type { Chain, StepDef } from '../../src/chain/index.ts';
import { stepRegistry } from '../../src/steps/index.ts';
import { useEditorStore } from '../stores/editor-store.ts';
import { FieldEditor } from './FieldEditor.tsx';
import { asRecord, readConfig } from './field-utils.ts';
import { BudgetField } from './fields/BudgetField.tsx';
import { bindingsKey } from '../../src/chain/index.ts';
import '../designer/designer.css';
import { StepRunStatus } from './StepRunStatus.tsx';
import { StepIdField } from './StepIdField.tsx';
import { modelContractOf } from '../designer/model-contract.ts';
import { lazy, Suspense } from 'react';

// The planner brings the tokenizer and the demo document with it: loaded only for a split step.
const PlannerSection = lazy(() => import('./PlannerSection.tsx'));


/** The selected step: its name, then the registry's fields in the registry's order. */
export function StepPanel({ chain, step }: { chain: Chain; step: StepDef }) {
  const def = stepRegistry.get(step.kind);
  const contract = modelContractOf(step);
  const renameStep = useEditorStore((s) => s.renameStep);
  return (
    <div className="panel-body" key={step.id}>
      <div className="panel-title">
        <span className="step-kind">{def?.title ?? step.kind}</span>
        <code className="muted">{step.id}</code>
      </div>
      {def && <p className="panel-hint">{def.description}</p>}
      <StepRunStatus stepId={step.id} />
      <StepIdField chain={chain} stepId={step.id} />
      <div className="field">
        <label className="field-label" htmlFor="inspector-name">
          Name
        </label>
        <input id="inspector-name" className="input" data-testid="inspector.name" value={step.name} onChange={(e) => renameStep(step.id, e.target.value)} />
      </div>
      {def ? (
        def.fields.map((field) => <FieldEditor key={`${step.id}:${field.key}`} chain={chain} step={step} field={field} />)
      ) : (
        <div className="field-error">Unknown step kind "{step.kind}": this build cannot edit it.</div>
      )}
      {/* Steps that call a model (their definition says so, not their kind's name) get the budget editor. */}
      {contract && (
        <BudgetField
          chain={chain}
          step={step}
          budget={contract.inputBudget}
          truncate={contract.truncate}
          bindings={Object.keys(asRecord(readConfig(step, bindingsKey(step, stepRegistry) ?? '')))}
        />
      )}
      {/* A step that partitions a document (a split) gets the decomposition planner. */}
      {def?.coverage?.kind === 'partition' && (
        <Suspense fallback={<p className="muted small">Loading the planner…</p>}>
          <PlannerSection chain={chain} step={step} />
        </Suspense>
      )}
    </div>
  );
}
