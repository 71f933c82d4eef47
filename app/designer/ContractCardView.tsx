import type { ContractCard } from '../../src/chain/index.ts';
import type { BoundaryConditions } from '../../src/inspect/index.ts';
import { ConditionsRow } from './ConditionsRow.tsx';

/**
 * The four decisions at one handoff (what crosses, its shape, its check, its failure path), and
 * the ones this chain leaves open; with the chain's documents, the named conditions the
 * consumer's questions need from it.
 */
export function ContractCardView({ card, testId, conditions = null }: { card: ContractCard; testId: string; conditions?: BoundaryConditions | null }) {
  const rows: [string, string][] = [
    ['Carries', card.carries.summary],
    ['Validated', card.validated.summary],
    ['Consumer holds the source', card.consumerHoldsSource.summary],
    ['When it arrives wrong', card.whenWrong.summary],
  ];
  return (
    <div className={card.unanswered.length ? 'contract-card has-open' : 'contract-card'} data-testid={testId}>
      <div className="contract-head">
        <span className="mono">{card.producer}</span> → <span className="mono">{card.consumer}</span>
        <span className="contract-kind">{card.carries.kind}</span>
      </div>
      <dl className="contract-rows">
        {rows.map(([label, text]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{text}</dd>
          </div>
        ))}
      </dl>
      {conditions && conditions.conditions.length > 0 && <ConditionsRow needs={conditions} testId={`${testId}.conditions`} />}
      {card.unanswered.length > 0 ? (
        <ul className="contract-open" data-testid={`${testId}.open`}>
          {card.unanswered.map((q) => (
            <li key={q}>⚠ {q}</li>
          ))}
        </ul>
      ) : (
        <div className="contract-ok">All four decisions are answered.</div>
      )}
    </div>
  );
}
