import type { BoundaryConditions } from '../../src/inspect/index.ts';

const typeWords: Record<string, string> = {
  exception: 'exception', prerequisite: 'condition to meet first', scope: 'what it applies to', definition: 'definition',
  negation: '“no” or “not”', finality: 'finality', limit: 'limit in words',
};
const MAX_SHOWN = 4;

/**
 * The conditions the consumer's questions turn on, as a card row: where the questions came from
 * (the input's example, the dataset the chain is evaluated on), each clause in the document's
 * words with its section, the question that needs it, and a warning when the producer summarises
 * without being told to keep them and the consumer never sees the document.
 */
export function ConditionsRow({ needs, testId }: { needs: BoundaryConditions; testId: string }) {
  const shown = needs.conditions.slice(0, MAX_SHOWN);
  const questions = [...new Set(shown.map((c) => c.question))];
  const atRisk = needs.summarises && !needs.asksToKeepConditions && !needs.consumerHoldsSource;
  const from = needs.fromDataset;
  return (
    <div className="contract-conditions" data-testid={testId}>
      <div className="contract-conditions-head">
        Conditions the question{questions.length === 1 ? '' : 's'} need{questions.length === 1 ? 's' : ''}
        {questions.length === 1 && <span className="muted"> (“{questions[0]}”)</span>}
      </div>
      {from && (
        <div className="muted contract-conditions-from" data-testid={`${testId}.from`}>
          From dataset “{from.name}”, {from.questions} question{from.questions === 1 ? '' : 's'}
          {needs.questions.length > from.questions ? ', and the input’s example' : ''}
        </div>
      )}
      <ul>
        {shown.map((c) => (
          <li key={`${c.source}|${c.line}|${c.text}`} title={`${c.question} — ${c.why}`} data-testid={`${testId}.item`}>
            “{c.text}” <span className="muted">{c.section ? `§ ${c.section}` : `line ${c.line}`}, {typeWords[c.type] ?? c.type}</span>
            {questions.length > 1 && <div className="muted contract-conditions-asked">for “{c.question}”</div>}
          </li>
        ))}
        {needs.conditions.length > MAX_SHOWN && <li className="muted">and {needs.conditions.length - MAX_SHOWN} more</li>}
      </ul>
      {atRisk ? (
        <div className="contract-conditions-warn">⚠ At risk: the summarising prompt of {needs.producer} does not ask to keep conditions, and {needs.consumer} never sees the document.</div>
      ) : needs.consumerHoldsSource ? (
        <div className="muted small">{needs.consumer} also reads the document, so they stay within its reach.</div>
      ) : null}
    </div>
  );
}
