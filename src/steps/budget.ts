import { stringifyForPrompt } from '../chain/template.ts';
import type { TruncationRecord } from '../trace/events.ts';

/**
 * Cuts one text to at most `maxTokens`, keeping its start (`from: 'end'` cuts the end) or its
 * end. Binary search on characters, measured with the real tokenizer, so the kept part is the
 * longest prefix/suffix that fits.
 */
export function cutToTokens(text: string, maxTokens: number, from: 'end' | 'start', countTokens: (t: string) => number): { kept: string; cut: string } {
  if (maxTokens <= 0) return { kept: '', cut: text };
  if (countTokens(text) <= maxTokens) return { kept: text, cut: '' };
  const piece = (n: number) => (from === 'end' ? text.slice(0, n) : text.slice(text.length - n));
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (countTokens(piece(mid)) <= maxTokens) lo = mid;
    else hi = mid - 1;
  }
  const kept = piece(lo);
  return { kept, cut: from === 'end' ? text.slice(lo) : text.slice(0, text.length - lo) };
}

/**
 * Applies a step's truncation policy to its values. `measure` reports the assembled prompt's
 * token total for a set of values; the binding's text is cut by exactly the overflow.
 */
export function applyBudget(
  values: Record<string, unknown>,
  budget: number,
  policy: { binding: string; from: 'end' | 'start' },
  measure: (values: Record<string, unknown>) => number,
  countTokens: (t: string) => number,
): { values: Record<string, unknown>; truncation: TruncationRecord } | null {
  const totalBefore = measure(values);
  if (totalBefore <= budget) return null;
  const text = stringifyForPrompt(Object.hasOwn(values, policy.binding) ? values[policy.binding] : undefined);
  const bindingTokensBefore = countTokens(text);
  let keep = bindingTokensBefore - (totalBefore - budget);
  let result = cutToTokens(text, keep, policy.from, countTokens);
  let next = { ...values, [policy.binding]: result.kept };
  // Token counts are not additive at the cut, so tighten until the whole prompt fits.
  while (measure(next) > budget && keep > 0) {
    keep -= 1;
    result = cutToTokens(text, keep, policy.from, countTokens);
    next = { ...values, [policy.binding]: result.kept };
  }
  return {
    values: next,
    truncation: {
      binding: policy.binding, from: policy.from, budget, totalBefore, totalAfter: measure(next),
      bindingTokensBefore, bindingTokensKept: countTokens(result.kept), cutText: result.cut,
    },
  };
}
