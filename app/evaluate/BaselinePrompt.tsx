import type { BaselinePlan } from './eval-store.ts';

/**
 * One baseline's call as it will be sent: system message and prompt template, and what fills
 * each placeholder for every item. Folded: it is checked once, not read every time.
 */
export function BaselinePrompt({ plan }: { plan: BaselinePlan }) {
  return (
    <details className="eval-baseline" data-testid={`eval.baseline.${plan.name}`}>
      <summary title={plan.name}>
        Prompt sent by the {plan.generated ? 'generated' : 'named'} baseline: <strong>{plan.label}</strong>
      </summary>
      {plan.system && (
        <>
          <div className="eval-baseline-label">System message</div>
          <pre className="eval-baseline-text">{plan.system}</pre>
        </>
      )}
      <div className="eval-baseline-label">Prompt</div>
      <pre className="eval-baseline-text" data-testid={`eval.baselinePrompt.${plan.name}`}>{plan.prompt}</pre>
      <ul className="eval-baseline-fills small" data-testid={`eval.baselineFills.${plan.name}`}>
        {plan.fills.map((f) => (
          <li key={f.placeholder}>
            <code>{`{${f.placeholder}}`}</code> ← {f.from}
          </li>
        ))}
        {plan.fills.length === 0 && <li className="bad">No placeholder: the call is sent none of the item’s inputs.</li>}
      </ul>
    </details>
  );
}
