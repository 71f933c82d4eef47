import { useState } from 'react';
import { stepIdProblem } from '../../src/chain/index.ts';
import type { Chain } from '../../src/chain/index.ts';
import { useEditorStore } from '../stores/editor-store.ts';

/**
 * The step's id: what other steps' refs (`steps.<id>`), routes and fallbacks name. Renaming
 * commits on Enter or leaving the box, and everything that names the step follows (one undo
 * step); an id that is taken or not an identifier says why and is not applied.
 */
export function StepIdField({ chain, stepId }: { chain: Chain; stepId: string }) {
  const [draft, setDraft] = useState(stepId);
  const problem = stepIdProblem(chain, stepId, draft);
  const commit = () => {
    if (draft === stepId) return;
    if (problem) setDraft(stepId);
    else useEditorStore.getState().renameStepId(stepId, draft);
  };
  return (
    <div className="field">
      <label className="field-label" htmlFor="inspector-id">
        Id <span className="muted small">(refs, routes and placeholders follow a rename)</span>
      </label>
      <input
        id="inspector-id"
        className={problem ? 'input mono is-invalid' : 'input mono'}
        data-testid="inspector.id"
        value={draft}
        spellCheck={false}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? 'inspector-id-problem' : undefined}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit();
          if (e.key === 'Escape') setDraft(stepId);
        }}
      />
      {problem && (
        <div className="field-error" id="inspector-id-problem" data-testid="inspector.id.problem">
          {problem}
        </div>
      )}
    </div>
  );
}
