import { lazy, Suspense, useMemo, useState } from 'react';
import { hashValue } from '../../../src/chain/index.ts';
import type { Chain } from '../../../src/chain/index.ts';
import { planFork } from '../../../src/engine/index.ts';
import { createSchemaValidator } from '../../../src/engine/index.ts';
import { stepRegistry } from '../../../src/steps/index.ts';
import { profileLabel } from '../../profiles/profile-label.ts';
import { useEditorStore } from '../../stores/editor-store.ts';
import type { ReplayState } from '../../stores/run-store.ts';
import { selectActiveProfile, selectChain, selectProblems } from '../../stores/selectors.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import { forkRun } from '../run-engine.ts';

// Monaco loads with the dialog's editor, never before.
const ForkEditor = lazy(() => import('./ForkEditor.tsx'));

const validator = createSchemaValidator();

type Mode = 'edit' | 'rerun';

/** The contract the step's output must meet, from the registry (a map's is its collection). */
function outputSchemaOf(chain: Chain, stepId: string): Record<string, unknown> | null {
  const step = chain.steps.find((s) => s.id === stepId);
  const def = step && stepRegistry.get(step.kind);
  const parsed = def?.config.safeParse(step?.config);
  return def && parsed?.success ? def.outputSchema(parsed.data) : null;
}

function parseEdit(text: string, schema: Record<string, unknown> | null): { value?: unknown; errors: string[] } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { errors: [`Not valid JSON: ${(error as Error).message}`] };
  }
  return { value, errors: schema ? validator.validate(schema, value) : [] };
}

/**
 * Rerun from a step. Either edit the step's output (the intermediate) and rerun only what
 * reads it, or run the step itself again with the chain as it is now in the editor. An edited
 * intermediate that does not meet the step's output schema cannot start a rerun. Upstream
 * steps are reused from this run and never called again; the plan says which.
 */
export function ForkDialog({ replay, stepId, onClose }: { replay: ReplayState; stepId: string; onClose(): void }) {
  const { meta, events, view } = replay;
  const parentChain = meta.chain as Chain;
  const editorChain = useEditorStore(selectChain);
  const profile = useEditorStore(selectActiveProfile);
  const openProblems = useEditorStore(selectProblems);
  const step = view.steps.find((s) => s.stepId === stepId);
  const current = editorChain?.id === meta.chainId ? editorChain : null;
  const changed = current !== null && hashValue(current) !== meta.chainRevision;
  const hasOutput = step?.output !== undefined;
  const [mode, setMode] = useState<Mode>(hasOutput ? 'edit' : 'rerun');
  const [useCurrent, setUseCurrent] = useState(false);
  const initialText = useMemo(() => JSON.stringify(step?.output ?? null, null, 2), [step]);
  const [text, setText] = useState(initialText);

  const chain = mode === 'rerun' || useCurrent ? (current ?? parentChain) : parentChain;
  // The chain is the parent's (it ran, so it is sound) or the one open in the editor.
  const chainProblems = chain === parentChain ? [] : openProblems;
  const schema = outputSchemaOf(parentChain, stepId);
  const edit = mode === 'edit' ? parseEdit(text, schema) : null;
  const editedOutput = edit && edit.errors.length === 0 ? { value: edit.value } : undefined;
  // Which steps are reused depends only on whether there is an edited output, not on its value.
  const withEdit = editedOutput !== undefined;
  const plan = useMemo(() => {
    try {
      return { ok: true as const, ...planFork(chain, events, stepId, withEdit ? { value: null } : undefined) };
    } catch (error) {
      return { ok: false as const, message: (error as Error).message };
    }
  }, [chain, events, stepId, withEdit]);
  const blocked = !profile || !plan.ok || chainProblems.length > 0 || (mode === 'edit' && !editedOutput);

  const start = () => {
    if (blocked || !profile || !plan.ok) return;
    onClose();
    void forkRun({ parent: meta, parentEvents: events, fromStep: stepId, chain, editedOutput, profile, reused: plan.reused });
  };

  const name = (id: string) => view.steps.find((s) => s.stepId === id)?.name ?? id;
  return (
    <Dialog
      title={`Rerun from "${step?.name ?? stepId}"`}
      testId="fork"
      onClose={onClose}
      wide
      footer={
        <>
          <span className="muted small grow">Endpoint: {profile ? profileLabel(profile) : 'loading…'}</span>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="button primary" data-testid="fork.start" disabled={blocked} onClick={start}>
            Start rerun
          </button>
        </>
      }
    >
      <div className="fork-modes" role="radiogroup" aria-label="What to change">
        <label className="checkbox">
          <input type="radio" name="fork-mode" data-testid="fork.mode.edit" checked={mode === 'edit'} disabled={!hasOutput} onChange={() => setMode('edit')} />
          Edit its output (the intermediate), then rerun what reads it
        </label>
        <label className="checkbox">
          <input type="radio" name="fork-mode" data-testid="fork.mode.rerun" checked={mode === 'rerun'} onChange={() => setMode('rerun')} />
          Run this step again with the chain as it is now{changed ? ' (edited since this run)' : ' (unchanged since this run)'}
        </label>
      </div>
      {mode === 'edit' && (
        <>
          <div className="field-label">
            Output of {step?.name ?? stepId} <span className="muted small">{schema ? 'validated against the step’s output schema' : 'free text: edit it as a JSON string'}</span>
          </div>
          <div className="json-field" data-testid="fork.editor">
            <Suspense fallback={<pre className="json-fallback">{initialText}</pre>}>
              <ForkEditor modelPath={`${meta.id}/${stepId}`} initialText={initialText} onChange={setText} />
            </Suspense>
          </div>
          {edit && edit.errors.length > 0 && (
            <ul className="fork-errors" data-testid="fork.errors">
              {edit.errors.map((e, i) => (
                <li key={i}>{e}</li>
              ))}
            </ul>
          )}
          {changed && (
            <label className="checkbox">
              <input type="checkbox" checked={useCurrent} onChange={(e) => setUseCurrent(e.target.checked)} /> Run the downstream steps with the chain as it is now
            </label>
          )}
        </>
      )}
      {chainProblems.length > 0 && <p className="field-error">The chain in the editor has {chainProblems.length} problem(s): fix them first, or edit the output instead.</p>}
      <div className="fork-plan" data-testid="fork.plan">
        <div className="field-label">Plan</div>
        {plan.ok ? (
          <ul className="plain-list">
            <li>
              <span className="plan-tag is-reused">Reused</span> {plan.reused.length ? plan.reused.map(name).join(', ') : 'nothing'}{' '}
              <span className="muted small">— from this run, not called again</span>
            </li>
            <li>
              <span className="plan-tag is-rerun">Rerun</span> {plan.rerun.length ? plan.rerun.map(name).join(', ') : 'nothing'}
            </li>
          </ul>
        ) : (
          <p className="field-error">{plan.message}</p>
        )}
      </div>
    </Dialog>
  );
}
