import type { BoundaryRow, CompoundingRow, EvalTable, ItemResult, StepRow, VariantRow } from '../../src/eval/index.ts';
import { formatMs } from '../ui/format.ts';
import { reviewAbstention, showEval } from './eval-actions.ts';
import { useEvalStore } from './eval-store.ts';
import { DocLink } from '../ui/DocLink.tsx';

const pct = (x: number | null) => (x === null ? '–' : `${(x * 100).toFixed(1)}%`);
const mark = { yes: '✓', no: '✗', conditional: '~' } as const;

/**
 * What moved the number, for one variant: per step (validation failures, retries, escalations,
 * abstentions, latency), per boundary (sufficiency estimated and labelled, recall on gold ids
 * at the stage's output and in the text sent, the three seam questions), and the compounding
 * compounding: the end-to-end rate the measured step rates predict, beside the measured one.
 */
export function EvalDetails({ evalId, table, variant, results }: { evalId: string; table: EvalTable; variant: string; results: readonly ItemResult[] }) {
  const row = table.variants.find((v) => v.name === variant);
  const steps = table.steps.filter((s) => s.variant === variant);
  const boundaries = table.boundaries.filter((b) => b.variant === variant);
  const compounding = table.compounding.find((c) => c.variant === variant);
  return (
    <div className="eval-details" data-testid="eval.details">
      {compounding && <Compounding row={compounding} />}
      {row && row.abstention.fired > 0 && <Abstention evalId={evalId} row={row} results={results} />}
      <h4>Steps</h4>
      <div className="table-scroll">
        <table className="data-table eval-table" data-testid="eval.steps">
          <thead>
            <tr>
              <th>Step</th><th className="num">Runs</th><th className="num">Invalid output</th><th className="num">Retried</th>
              <th className="num">Escalated</th><th className="num">Abstained</th><th className="num">Failed</th><th className="num">p50</th><th className="num">p95</th>
            </tr>
          </thead>
          <tbody>
            {steps.map((s: StepRow) => (
              <tr key={s.stepId}>
                <td className="mono">{s.stepId}</td><td className="num">{s.runs}</td><td className="num">{pct(s.validationFailureRate)}</td><td className="num">{pct(s.retryRate)}</td>
                <td className="num">{pct(s.escalationRate)}</td><td className="num">{pct(s.abstentionRate)}</td><td className="num">{pct(s.failureRate)}</td>
                <td className="num">{formatMs(s.p50Ms)}</td><td className="num">{formatMs(s.p95Ms)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h4>
        Boundaries <DocLink page="concepts" anchor="sufficiency" topic="Sufficiency at a boundary" />
      </h4>
      <div className="table-scroll">
        <table className="data-table eval-table" data-testid="eval.boundaries">
          <thead>
            <tr>
              <th>Boundary</th>
              <th className="num" title="Estimated: the gold facts (or the facts the question asks for) reached the consumer">Sufficient</th>
              <th className="num" title="Labelled by people in the replay view: derivable ÷ labelled">Labelled</th>
              <th className="num" title="Recall against the items' gold section and chunk ids, on what the stage output">Recall out</th>
              <th className="num" title="The same recall on the text the consumer was actually sent, after its input budget">Recall sent</th>
              <th title="Can the stage's input be built alone · does its output admit a verdict · is ground truth affordable">Seam questions</th>
            </tr>
          </thead>
          <tbody>
            {boundaries.map((b: BoundaryRow) => (
              <tr key={b.boundary} data-testid={`eval.boundary.${b.producer}.${b.consumer}`}>
                <td className="mono">{b.producer} → {b.consumer}</td>
                <td className="num" title={`${b.sufficient} sufficient, ${b.insufficient} insufficient, ${b.unknown} not estimated of ${b.runs} runs`}>{pct(b.sufficiencyRate)}</td>
                <td className="num" title={`${b.labelled.derivable} derivable, ${b.labelled.notDerivable} not, ${b.labelled.unsure} unsure`}>{pct(b.labelled.rate)}</td>
                <td className="num" title={b.recall ? `recall@${b.recall.k.toFixed(1)} over ${b.recall.items} items with gold ids` : 'the stage outputs no ids, or no item has gold ids'}>{b.recall ? b.recall.output.toFixed(2) : '–'}</td>
                <td className={`num${b.recall && b.recall.sent !== null && b.recall.sent < b.recall.output ? ' is-bad' : ''}`} title={b.recall?.lostInPrompt ? `the text sent lost gold ids in ${b.recall.lostInPrompt} of ${b.recall.items} items` : 'nothing lost between the output and the prompt'}>
                  {b.recall && b.recall.sent !== null ? b.recall.sent.toFixed(2) : '–'}
                </td>
                <td className="eval-seam">
                  {(['input', 'verdict', 'groundTruth'] as const).map((q) => (
                    <span key={q} className={`seam-answer is-${b.questions[q].answer}`} title={b.questions[q].why}>{mark[b.questions[q].answer]}</span>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function Compounding({ row }: { row: CompoundingRow }) {
  if (row.rates.length === 0) return <p className="muted small" data-testid="eval.compounding">No step failed its contract and no handoff lost a fact: nothing for the compounding arithmetic to multiply.</p>;
  return (
    <p className="small" data-testid="eval.compounding" title={row.estimate.explanation}>
      Compounding <DocLink page="concepts" anchor="compounding" topic="Error compounding" />: measured step rates predict <strong>{pct(row.predicted)}</strong> end to end; measured <strong>{pct(row.measured)}</strong>. <span className="muted">{row.estimate.explanation}</span>
    </p>
  );
}

/**
 * The abstention arithmetic (fire rate × false share × volume × handling time) and its review queue: each flagged item the dataset does not
 * settle waits for a person to say whether it could have been answered; every mark updates the
 * multiplications (fire rate × false share × volume × handling minutes).
 */
function Abstention({ evalId, row, results }: { evalId: string; row: VariantRow; results: readonly ItemResult[] }) {
  const minutes = useEvalStore((s) => s.handlingMinutes);
  const c = row.abstention;
  // Unreviewed first, then the marked ones (a mark can be changed); the dataset's verdicts are not asked again.
  const marks = new Map(c.reviewed.map((r) => [r.itemId, r.answerable]));
  const byId = new Map(results.filter((r) => r.variant === row.name).map((r) => [r.itemId, r]));
  const queue = [...c.toReview, ...marks.keys()].flatMap((id) => byId.get(id) ?? []).slice(0, 50);
  return (
    <section className="eval-abstention" data-testid="eval.abstention">
      <h4>Abstention</h4>
      <ol className="small eval-steps" data-testid="eval.abstention.steps">
        {c.steps.map((line) => <li key={line}>{line}</li>)}
      </ol>
      <label className="small eval-minutes">
        Minutes a person spends on one escalation
        <input
          className="input eval-minutes-input" type="number" min={0} step={0.5} value={minutes} aria-label="Handling minutes" data-testid="eval.handlingMinutes"
          onChange={(e) => {
            const n = Number(e.target.value);
            if (!Number.isFinite(n) || n < 0) return;
            useEvalStore.getState().setHandlingMinutes(n);
            void showEval(evalId);
          }}
        />
      </label>
      {queue.length > 0 && (
        <>
          <p className="small muted">Flagged items to review ({c.toReview.length} left, {c.reviewed.length} marked): could the chain have answered it?</p>
          <ul className="eval-items eval-review" data-testid="eval.reviewQueue">
            {queue.map((r) => {
              const mark = marks.get(r.itemId);
              return (
                <li key={r.itemId} data-testid={`eval.review.${r.itemId}`}>
                  <span className="eval-item-verdict">{r.status}</span>
                  <span className="mono">{r.itemId}</span>
                  <span className="muted">{mark === undefined ? (r.error ?? '') : mark ? 'marked answerable' : 'marked: no answer'}</span>
                  <span className="eval-review-marks">
                    <button type="button" className="button small" aria-pressed={mark === true} data-testid={`eval.review.answerable.${r.itemId}`} onClick={() => void reviewAbstention(evalId, r.variant, r.itemId, true)}>Answerable</button>
                    <button type="button" className="button small" aria-pressed={mark === false} data-testid={`eval.review.noAnswer.${r.itemId}`} onClick={() => void reviewAbstention(evalId, r.variant, r.itemId, false)}>No answer</button>
                  </span>
                </li>
              );
            })}
          </ul>
        </>
      )}
    </section>
  );
}
