import { useState } from 'react';
import type { Boundary, RunMeta } from '../../../src/trace/index.ts';
import { selectActiveProfile } from '../../stores/selectors.ts';
import { useEditorStore } from '../../stores/editor-store.ts';
import { formatTokens } from '../../ui/format.ts';
import type { JudgeOutcome } from './judge-actions.ts';

const words = { derivable: 'derivable', 'not-derivable': 'not derivable' } as const;

/**
 * A sufficiency judge for this boundary, on a real endpoint only. Its verdict is shown with its
 * agreement with the person's own labels beside it (confusion table, Cohen's kappa, n) and stays
 * "the judge's opinion" until that agreement is high enough: a judge nobody checked never turns
 * into the boundary's verdict. Keyed by run and boundary by the caller.
 */
export function JudgeBar({ meta, boundary, live }: { meta: RunMeta; boundary: Boundary; live: boolean }) {
  const profile = useEditorStore(selectActiveProfile);
  const [state, setState] = useState<{ busy: boolean; outcome?: JudgeOutcome; error?: string }>({ busy: false });
  const demo = !profile || profile.kind === 'demo';
  const ask = async () => {
    if (!profile || demo) return;
    setState({ busy: true });
    try {
      const { judgeWithCalibration } = await import('./judge-actions.ts');
      setState({ busy: false, outcome: await judgeWithCalibration(meta, boundary, profile) });
    } catch (error) {
      setState({ busy: false, error: (error as Error).message });
    }
  };
  // The offline demo model keeps the rule-based estimate beside the label: no judge to ask, and no
  // disabled control taking a line of the replay's height.
  if (demo) return null;
  const { outcome } = state;
  const a = outcome?.agreement;
  const verdict = outcome?.current.verdict;
  return (
    <div className="judge-bar" data-testid="replay.judge">
      <button
        type="button"
        className="button small"
        data-testid="replay.judge.ask"
        disabled={live || state.busy}
        title={`Ask ${profile.model} whether this boundary is derivable, after judging the boundaries you labelled on this chain's runs (to measure how far it agrees with you)`}
        onClick={() => void ask()}
      >
        {state.busy ? 'Judging…' : 'Ask a judge'}
      </button>
      {state.error && <span className="judge-error" role="alert">{state.error}</span>}
      {outcome && a && (
        <>
          <span className={`verdict judge-verdict is-${verdict ?? 'none'}`} data-testid="replay.judge.verdict" title={outcome.current.reason}>
            {verdict ? `${a.trusted ? 'Judge' : 'Judge (not trusted yet)'}: ${words[verdict]}` : 'Judge: no verdict'}
          </span>
          {outcome.current.quote && !outcome.current.quote.found && (
            <span className="judge-error small" data-testid="replay.judge.badQuote" title={`The judge quoted "${outcome.current.quote.text}", which the consumer never received`}>
              its quote is not in the intermediate
            </span>
          )}
          <span className="judge-reason small" title={outcome.current.reason}>
            {outcome.current.reason}
          </span>
          <span className="judge-agreement small" data-testid="replay.judge.agreement" title={a.why}>
            agreement with your labels: n {a.n}
            {a.kappa !== null ? `, κ ${a.kappa.toFixed(2)}` : ''}
            {a.n > 0 && (
              <span className="judge-table mono" aria-label="Judge (rows) against your labels (columns): derivable, not derivable">
                {' '}[{a.table.derivable.derivable} {a.table.derivable.notDerivable} / {a.table.notDerivable.derivable} {a.table.notDerivable.notDerivable}]
              </span>
            )}
            {' · '}
            {a.trusted ? 'trusted' : 'not trusted yet'}
          </span>
          <span className="muted small" data-testid="replay.judge.usage">
            judge: {outcome.usage.calls} call{outcome.usage.calls === 1 ? '' : 's'}, {formatTokens(outcome.usage.inputTokens + outcome.usage.outputTokens)} tokens (not the run's)
          </span>
        </>
      )}
    </div>
  );
}
