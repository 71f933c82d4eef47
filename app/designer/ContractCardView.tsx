import type { ContractCard } from '../../src/chain/index.ts';

/** The four decisions at one handoff (what crosses, its shape, its check, its failure path), and the ones this chain leaves open. */
export function ContractCardView({ card, testId }: { card: ContractCard; testId: string }) {
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
