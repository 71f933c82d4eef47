import { useEffect, useState } from 'react';
import type { Chain } from '../../src/chain/index.ts';
import { ownValue } from '../../src/chain/index.ts';
import { loadInputFiles } from '../persistence/chains.ts';
import { useEditorStore } from '../stores/editor-store.ts';
import { runBlocker, selectActiveProfile, selectLintErrors, selectProblems, selectUnsavedEdits } from '../stores/selectors.ts';
import { profileLabel } from '../profiles/profile-label.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { defaultInputText, inputProblems, inputValues } from './run-inputs.ts';
import { startRun } from './run-engine.ts';

/** One box per chain input, prefilled from the demo files or examples; Start runs the chain. */
export function RunDialog({ chain, onClose }: { chain: Chain; onClose(): void }) {
  const profile = useEditorStore(selectActiveProfile);
  const problems = useEditorStore(selectProblems);
  const unsaved = useEditorStore(selectUnsavedEdits);
  const [texts, setTexts] = useState<Record<string, string> | null>(null);
  const designErrors = useEditorStore(selectLintErrors);
  const blocker = runBlocker(unsaved, problems, designErrors);
  const missing = texts ? inputProblems(chain, texts) : {};
  const firstMissing = Object.values(missing)[0];

  useEffect(() => {
    let live = true;
    loadInputFiles(chain)
      .catch(() => ({}) as Record<string, string>)
      .then((files) => {
        if (live) setTexts(Object.fromEntries(chain.inputs.map((i) => [i.name, defaultInputText(i, files)])));
      });
    return () => {
      live = false;
    };
  }, [chain]);

  const start = () => {
    if (!texts || !profile || blocker || firstMissing) return;
    onClose();
    void startRun(chain, inputValues(chain, texts), profile);
  };

  return (
    <Dialog
      title={`Run "${chain.name}"`}
      testId="run.dialog"
      onClose={onClose}
      wide
      footer={
        <>
          <span className="muted small grow">
            Endpoint: {profile ? profileLabel(profile) : 'loading…'}
            {(blocker ?? firstMissing) && <span className="field-error" data-testid="run.dialog.blocked"> · {blocker ?? `${firstMissing}.`}</span>}
          </span>
          <button type="button" className="button" onClick={onClose}>
            Close
          </button>
          <button type="button" className="button primary" data-testid="run.start" disabled={!texts || !profile || !!blocker || !!firstMissing} onClick={start}>
            Start run
          </button>
        </>
      }
    >
      {!texts ? (
        <p className="muted">Loading the inputs…</p>
      ) : chain.inputs.length === 0 ? (
        <p className="muted">This chain has no inputs.</p>
      ) : (
        chain.inputs.map((input) => {
          // Input names are the chain's: "constructor" must not find Object.prototype.constructor.
          const problem = ownValue(missing, input.name);
          return (
          <label key={input.name} className="field">
            <span className="field-label">
              <code>{input.name}</code>
              <span className="muted small">
                {' '}
                {String(input.schema.type ?? 'any')} · {input.trust}
                {input.required ? '' : ' · optional'}
                {input.description ? ` — ${input.description}` : ''}
              </span>
            </span>
            <textarea
              className="input mono"
              rows={input.name === 'question' || (ownValue(texts, input.name) ?? '').length < 200 ? 3 : 12}
              data-testid={`run.input.${input.name}`}
              value={ownValue(texts, input.name) ?? ''}
              spellCheck={false}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? `run-input-problem-${input.name}` : undefined}
              onChange={(e) => setTexts({ ...texts, [input.name]: e.target.value })}
            />
            {problem && <span id={`run-input-problem-${input.name}`} className="field-error small">{problem}</span>}
          </label>
          );
        })
      )}
    </Dialog>
  );
}
