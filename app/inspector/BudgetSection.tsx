import { useState } from 'react';
import type { Chain, RunBudget } from '../../src/chain/index.ts';
import { runBudgetSchema } from '../../src/chain/schema.ts';
import { useEditorStore } from '../stores/editor-store.ts';

/** Each limit as a person types it: time in seconds, money in dollars. */
const LIMITS: { key: keyof RunBudget; label: string; unit: string; one: string; scale: number; integer: boolean }[] = [
  { key: 'maxSteps', label: 'Steps', unit: 'steps', one: 'step', scale: 1, integer: true },
  { key: 'maxRequests', label: 'Model requests', unit: 'requests', one: 'request', scale: 1, integer: true },
  { key: 'maxTokens', label: 'Tokens', unit: 'tokens', one: 'token', scale: 1, integer: true },
  { key: 'maxCostUsd', label: 'Spend', unit: 'US$', one: 'US$', scale: 1, integer: false },
  { key: 'maxTimeMs', label: 'Time', unit: 'seconds', one: 'second', scale: 1000, integer: false },
];

function budgetSummary(budget: RunBudget | undefined): string {
  const parts = LIMITS.flatMap((l) => {
    const v = budget?.[l.key];
    if (v === undefined) return [];
    return [l.key === 'maxCostUsd' ? `$${v}` : `${v / l.scale} ${v === l.scale ? l.one : l.unit}`];
  });
  return parts.length ? parts.join(' · ') : 'no limits';
}

function LimitField({ limit, value }: { limit: (typeof LIMITS)[number]; value: number | undefined }) {
  const shown = value === undefined ? '' : String(value / limit.scale);
  const [text, setText] = useState(shown);
  // Undo or another tab changed it: show the chain's value, not what was typed before.
  const [seen, setSeen] = useState(value);
  if (value !== seen) {
    setSeen(value);
    setText(shown);
  }
  const problem = limitProblem(text, limit);
  const id = `budget-${limit.key}`;
  return (
    <div className="budget-row">
      <label htmlFor={id} className="small">{limit.label}</label>
      <input
        id={id}
        className={problem ? 'input is-invalid' : 'input'}
        data-testid={`chain.budget.${limit.key}`}
        inputMode="decimal"
        placeholder="no limit"
        value={text}
        aria-invalid={problem ? true : undefined}
        onChange={(e) => {
          setText(e.target.value);
          if (limitProblem(e.target.value, limit)) return;
          const raw = e.target.value.trim();
          useEditorStore.getState().setBudgetLimit(limit.key, raw === '' ? undefined : toLimit(raw, limit));
        }}
      />
      <span className="muted small">{limit.unit}</span>
      {problem && <div className="field-error budget-error">{problem}</div>}
    </div>
  );
}

const toLimit = (raw: string, limit: (typeof LIMITS)[number]) => {
  const n = Number(raw) * limit.scale;
  return limit.integer || limit.scale !== 1 ? Math.round(n) : n;
};

function limitProblem(text: string, limit: (typeof LIMITS)[number]): string | null {
  const raw = text.trim();
  if (raw === '') return null;
  if (!/^\d+(\.\d+)?$/.test(raw)) return 'Enter a positive number, or leave it empty for no limit';
  const check = runBudgetSchema.shape[limit.key].safeParse(toLimit(raw, limit));
  if (!check.success || toLimit(raw, limit) <= 0) return limit.integer ? 'Enter a whole number from 1' : 'Enter a number above 0';
  return null;
}

/**
 * The chain's run budget: what one run may spend before it stops, failed, with the reason.
 * Kept in the chain file, so a chain shared with someone else carries its limits with it.
 */
export function BudgetSection({ chain }: { chain: Chain }) {
  return (
    <details className="field budget" data-testid="chain.budget" open={chain.budget !== undefined || undefined}>
      <summary className="field-label">
        Run budget <span className="muted small" data-testid="chain.budget.summary">{budgetSummary(chain.budget)}</span>
      </summary>
      <p className="muted small">A run stops, failed, before it would spend more than this. Empty: no limit.</p>
      {LIMITS.map((limit) => (
        <LimitField key={limit.key} limit={limit} value={chain.budget?.[limit.key]} />
      ))}
    </details>
  );
}
