import { useMemo } from 'react';
import type { LintFinding } from '../../src/chain/index.ts';
import { isLargeChain } from '../designer/analysis.ts';
import { saveEgressAnswer, unconfirmedTargets } from '../egress/consent.ts';
import { selectEgressAnswers, useEgressStore } from '../stores/egress-store.ts';
import { useEditorStore } from '../stores/editor-store.ts';
import { selectAnalysisPending, selectChain, selectLint, selectLintErrors, selectProblems, selectUnsavedEdits, stepIdForPath } from '../stores/selectors.ts';

/**
 * parseChain's problems for the open chain, live, and below them the design lint (which only
 * runs once the chain is sound). A click selects the step a problem or finding belongs to.
 */
export function ProblemsList() {
  const chain = useEditorStore(selectChain);
  const problems = useEditorStore(selectProblems);
  const unsaved = useEditorStore(selectUnsavedEdits);
  // A design finding of error severity is a problem (it blocks Run), listed and counted here.
  const designErrors = useEditorStore(selectLintErrors);
  const count = problems.length + unsaved.length + designErrors.length;
  const allLint = useEditorStore(selectLint);
  const lint = useMemo(() => (designErrors.length ? allLint.filter((f) => f.severity !== 'error') : allLint), [allLint, designErrors]);
  const answers = useEgressStore(selectEgressAnswers);
  // Unconfirmed egress is a finding on the webhook step: it depends on this device's answers,
  // not only on the chain, so it is added here rather than in the cached lint.
  const findings = useMemo((): readonly (LintFinding & { origin?: string; refused?: boolean })[] => {
    if (!chain) return lint;
    const egress = unconfirmedTargets(chain, answers).map((t) => ({
      code: 'unconfirmed-egress', severity: 'warning' as const, stepId: t.stepId, origin: t.origin, refused: t.refused,
      message: t.refused
        ? `Posts the result to ${t.origin}, which you did not allow on this device: runs stop before any call.`
        : `Posts the result to ${t.origin}: unconfirmed egress. The first run asks before anything is sent there.`,
    }));
    return egress.length ? [...egress, ...lint] : lint;
  }, [chain, lint, answers]);
  const selectStep = useEditorStore((s) => s.selectStep);
  // Large chains are checked in the background: say when a check is running.
  const pending = useEditorStore(selectAnalysisPending);
  const checking = pending && chain !== null && isLargeChain(chain);
  return (
    <section className="problems" aria-label="Problems">
      <div className="section-title">
        Problems <span className={count ? 'count is-bad' : 'count'}>{count}</span>
        {findings.length > 0 && (
          <>
            <span className="muted">Design notes</span> <span className="count is-warn">{findings.length}</span>
          </>
        )}
      </div>
      {checking && <div className="muted small problems-note" data-testid="problems.checking">Checking {chain?.steps.length} steps in the background…</div>}
      <ul data-testid="problems" className="problems-list">
        {unsaved.map((e) => (
          <li key={`unsaved:${e.stepId}:${e.field}`}>
            <button type="button" data-testid="problems.item" className="problem" onClick={() => selectStep(e.stepId)}>
              <span className="problem-where mono">{e.stepId}</span>
              <span className="problem-text">{e.field} not saved: {e.message}</span>
            </button>
          </li>
        ))}
        {problems.map((p, i) => {
          const stepId = chain ? stepIdForPath(chain, p.path) : null;
          return (
            <li key={`${p.path}:${i}`}>
              <button type="button" data-testid="problems.item" className="problem" disabled={!stepId} onClick={() => stepId && selectStep(stepId)}>
                <span className="problem-where mono">{stepId ?? p.path}</span>
                <span className="problem-text">{p.message}</span>
              </button>
            </li>
          );
        })}
        {designErrors.map((f, i) => (
          <li key={`design:${f.code}:${f.stepId ?? ''}:${i}`}>
            <button type="button" data-testid="problems.item" className="problem" disabled={!f.stepId} onClick={() => f.stepId && selectStep(f.stepId)}>
              <span className="problem-where mono">{f.stepId ?? 'chain'} · {f.code}</span>
              <span className="problem-text">{f.message}</span>
            </button>
          </li>
        ))}
        {/* While the background check runs, no problems found yet is not "No problems". */}
        {count === 0 && !checking && <li className="muted small problems-none">No problems.</li>}
      </ul>
      {findings.length > 0 && (
        <ul data-testid="lint" className="problems-list">
          {findings.map((f, i) => (
            <li key={`${f.code}:${f.stepId ?? ''}:${i}`}>
              <button type="button" data-testid="lint.item" className={`problem finding ${f.severity}`} disabled={!f.stepId} onClick={() => f.stepId && selectStep(f.stepId)}>
                <span className="problem-where mono">
                  {f.severity} · {f.stepId ?? 'chain'} · {f.code}
                </span>
                <span className="problem-text">{f.message}</span>
              </button>
              {f.refused && f.origin && (
                <button type="button" className="button small" data-testid="lint.egress.forget" onClick={() => f.origin && saveEgressAnswer(f.origin, null)}>
                  Ask again next run
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
