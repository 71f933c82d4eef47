import { useEffect, useMemo, useState } from 'react';
import type { Chain, StepDef } from '../../../src/chain/index.ts';
import { estimateTokens } from '../../../src/providers/index.ts';
import { examplePrompt } from '../../designer/prompt-estimate.ts';
import { useEditorStore } from '../../stores/editor-store.ts';
import { NumberField } from './NumberField.tsx';

interface Props {
  chain: Chain;
  step: StepDef;
  budget: number;
  truncate: { binding: string; from: 'end' | 'start' } | null;
  bindings: readonly string[];
}

type Exact = { text: string; total: number; perBinding: Record<string, number> };

/**
 * The input budget, with a live token count of the prompt this step would send with example
 * values: an instant estimate (characters / 4) and, once the tokenizer has loaded (~2 MB, only
 * here), the exact o200k count. Over budget without a truncation policy the step would fail.
 */
export function BudgetField({ chain, step, budget, truncate, bindings }: Props) {
  const estimate = useMemo(() => examplePrompt(chain, step), [chain, step]);
  const [exact, setExact] = useState<Exact | null>(null);
  const s = useEditorStore.getState;

  useEffect(() => {
    if (!estimate) return;
    let live = true;
    const timer = setTimeout(() => {
      void import('../../../src/providers/index.ts')
        .then((m) => m.loadTokenCounter())
        .then((count) => {
          if (live) setExact({ text: estimate.text, total: count(estimate.text), perBinding: Object.fromEntries(estimate.bindings.map((b) => [b.name, count(b.text)])) });
        });
    }, 150);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [estimate]);

  if (!estimate) return null;
  const current = exact?.text === estimate.text ? exact : null;
  const total = current?.total ?? estimateTokens(estimate.text);
  const over = budget > 0 && total > budget;
  const unknown = estimate.bindings.filter((b) => b.source === 'no example').map((b) => b.name);

  return (
    <div className="field budget" data-testid="budget">
      <label className="field-label" htmlFor={`budget-${step.id}`}>
        Input budget (tokens; 0 = none)
      </label>
      <NumberField id={`budget-${step.id}`} testId="budget.input" value={budget} min={0} max={10_000_000} step={100} onChange={(n) => s().updateStepConfig(step.id, 'inputBudget', n)} />
      <div className={over ? 'budget-estimate is-over' : 'budget-estimate'} data-testid="budget.estimate">
        {current ? `${total.toLocaleString()} tokens` : `≈ ${total.toLocaleString()} tokens`}
        {budget > 0 && ` of ${budget.toLocaleString()}`}
        <span className="muted tiny">{current ? ' · exact (o200k) with example values' : ' · estimate; counting exactly…'}</span>
      </div>
      {estimate.bindings.length > 0 && (
        <ul className="budget-parts">
          {estimate.bindings.map((b) => (
            <li key={b.name}>
              <span className="mono">{`{${b.name}}`}</span>{' '}
              <span className="muted tiny">
                {b.source === 'no example' ? 'no example: size unknown' : `${(current?.perBinding[b.name] ?? estimateTokens(b.text)).toLocaleString()} tokens (${b.source})`}
              </span>
            </li>
          ))}
        </ul>
      )}
      {unknown.length > 0 && <p className="muted tiny">Give {unknown.map((u) => `“${u}”`).join(', ')} an example in the chain input to count it.</p>}
      {budget > 0 && (
        <label className="field">
          <span className="field-label">When the prompt is over budget</span>
          <select
            className="input"
            data-testid="budget.truncate"
            value={truncate ? `${truncate.binding}:${truncate.from}` : ''}
            onChange={(e) => {
              const [binding, from] = e.target.value.split(':');
              s().updateStepConfig(step.id, 'truncate', binding ? { binding, from: from === 'start' ? 'start' : 'end' } : null);
            }}
          >
            <option value="">Fail the step (never cut silently)</option>
            {bindings.flatMap((b) => [
              <option key={`${b}:end`} value={`${b}:end`}>Cut the end of {`{${b}}`}</option>,
              <option key={`${b}:start`} value={`${b}:start`}>Cut the start of {`{${b}}`}</option>,
            ])}
          </select>
        </label>
      )}
      {over && !truncate && <div className="field-error">With these examples the prompt is over budget and the step would fail: raise the budget or choose what to cut.</div>}
    </div>
  );
}
