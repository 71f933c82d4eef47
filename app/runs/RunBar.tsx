import { lazy, Suspense, useState } from 'react';
import type { RunMeta } from '../../src/trace/index.ts';
import { useEditorStore } from '../stores/editor-store.ts';
import { useRunStore } from '../stores/run-store.ts';
import { runBlocker, selectChain, stepIdForPath, selectLintErrors, selectLive, selectProblems, selectRuns, selectUnsavedEdits } from '../stores/selectors.ts';

const RunDialog = lazy(() => import('./RunDialog.tsx').then((m) => ({ default: m.RunDialog })));
// Cancel shows only while a run goes, which loaded the run commands: not needed to paint the bar.
const cancelRun = () => void import('./run-actions.ts').then((m) => m.cancelRun());

/** Run button, the current run's status and Cancel, in the top bar. */
export function RunBar() {
  const chain = useEditorStore(selectChain);
  const live = useRunStore(selectLive);
  const runs = useRunStore(selectRuns);
  const [open, setOpen] = useState(false);
  const unsaved = useEditorStore(selectUnsavedEdits);
  const problems = useEditorStore(selectProblems);
  const designErrors = useEditorStore(selectLintErrors);
  const blocker = chain ? runBlocker(unsaved, problems, designErrors) : null;
  const selectStep = useEditorStore((s) => s.selectStep);
  const blockingStep = unsaved[0]?.stepId ?? (chain && problems[0] ? stepIdForPath(chain, problems[0].path) : (designErrors[0]?.stepId ?? null));
  const blockCount = problems.length + designErrors.length;
  const running = live?.status === 'running';
  // The open chain's last run (a person's own, not an evaluation's), or nothing: never another chain's.
  const stored = runs.reduce<RunMeta | null>((best, r) => (r.chainId === chain?.id && !r.evalId && (!best || r.startedAt > best.startedAt) ? r : best), null);
  const last = live && live.chainId === chain?.id ? live : stored;
  return (
    <div className="run-bar">
      {last && (
        <span className={`run-status status-${last.status}`} title={last.error}>
          <span className="status-dot" />
          <span data-testid="run.status" className="run-status-text">
            {last.status}
          </span>
        </span>
      )}
      {running && (
        <button type="button" className="button" data-testid="run.cancel" onClick={cancelRun}>
          Cancel
        </button>
      )}
      {blocker && !running && (
        // Says what blocks Run; a click opens the step it is about.
        <button type="button" className="run-blocked" data-testid="run.blocked" title={blocker} onClick={() => blockingStep && selectStep(blockingStep)}>
          {unsaved.length ? 'Unsaved edit' : `${blockCount} problem${blockCount === 1 ? '' : 's'}`}
          {/* A design error says its reason right here: what to connect, on which step. */}
          {!unsaved.length && !problems.length && designErrors.length > 0 && <span className="run-blocked-why">: {blocker}</span>}
        </button>
      )}
      <button
        type="button"
        className="button primary"
        data-testid="run.open"
        disabled={!chain || running || !!blocker}
        title={blocker ?? undefined}
        aria-describedby={blocker ? 'run-blocked-reason' : undefined}
        onClick={() => setOpen(true)}
      >
        Run
      </button>
      {blocker && <span id="run-blocked-reason" className="visually-hidden">{blocker}</span>}
      {open && chain && (
        <Suspense fallback={null}>
          <RunDialog chain={chain} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </div>
  );
}
