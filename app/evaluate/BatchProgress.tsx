import { selectEvalProgress, useEvalStore } from './eval-store.ts';

/**
 * The running batch's progress bar and count. Re-renders on progress alone (at most 4 times a
 * second), wherever it is shown: the Evaluate view and the top bar each have one, told apart
 * by `testId`.
 */
export function BatchProgress({ testId = 'eval', compact = false }: { testId?: string; compact?: boolean }) {
  const progress = useEvalStore(selectEvalProgress);
  if (!progress) return null;
  const eta = progress.etaMs !== null && progress.done < progress.total ? `about ${Math.ceil(progress.etaMs / 1000)} s left` : '';
  const failed = progress.failed ? ` · ${progress.failed} failed` : '';
  return (
    <>
      <progress max={progress.total} value={progress.done} aria-label="Evaluation progress" data-testid={`${testId}.progress`} />
      {/* Compact (the top bar): the count alone, the time left in the tooltip. */}
      {/* Wide enough for the final count from the start, so the top bar never re-lays out as it counts. */}
      <span className="eval-progress-text" data-testid={`${testId}.progressText`} title={compact && eta ? eta : undefined} style={compact ? { minWidth: `${2 * String(progress.total).length + 8}ch` } : undefined}>
        {progress.done} / {progress.total} done{failed}
        {!compact && eta ? ` · ${eta}` : ''}
      </span>
    </>
  );
}
