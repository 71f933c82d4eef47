import { propertyOf } from '../files/json-value.ts';

/**
 * n8n's branching nodes read as routers: an If (one condition, true/false branches) and a Switch
 * in rules mode (one rule per output, each an equality on the same value; an optional fallback
 * output). What each tests is an n8n expression; n8n.ts turns it into a router's binding (a step's
 * field, or a chain input when it is code or a node outside the chain).
 */

export interface Branching {
  /** The expression the node tests (its left value, as written). */
  left: string;
  /** Each labelled branch: the value that takes it, the node's output it leaves by, its label. */
  labels: { equals: unknown; output: number; label: string }[];
  /** The output the rest leave by, or null when n8n drops them. */
  other: number | null;
  /** The input a code condition becomes is a boolean (If) or a text (Switch). */
  kind: 'boolean' | 'string';
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** One condition of n8n's filter parameter (v2): its left value, operation and right value. */
function conditionOf(value: unknown): { left: string; operation: string; right: unknown } | null {
  const conditions = propertyOf(value, 'conditions');
  if (!Array.isArray(conditions) || conditions.length !== 1) return null;
  const only = conditions[0];
  return { left: text(propertyOf(only, 'leftValue')), operation: text(propertyOf(propertyOf(only, 'operator'), 'operation')), right: propertyOf(only, 'rightValue') };
}

/** An If node's branching, or why it cannot be one router. */
export function ifBranching(parameters: Record<string, unknown>): Branching | { problem: string; left: string } {
  const condition = conditionOf(parameters.conditions);
  if (!condition) return { problem: 'it combines several conditions', left: '' };
  const { left, operation, right } = condition;
  if (!['true', 'false', 'equals'].includes(operation)) return { problem: `its operation "${operation}" is not a test of one value`, left };
  const equals = operation === 'equals' ? right : operation === 'true';
  return { left, labels: [{ equals, output: 0, label: 'true' }], other: 1, kind: operation === 'equals' ? 'string' : 'boolean' };
}

/**
 * A Switch node (rules mode) as one router: every rule one `equals` condition on the same left
 * value, each leaving by its own output (or the rule's renamed key as its label). Expression mode
 * (an output number computed in code) and rules on different values are not one router.
 */
export function switchBranching(parameters: Record<string, unknown>): Branching | { problem: string; left: string } {
  if (text(parameters.mode) === 'expression') return { problem: 'it picks its output with an expression, which is code', left: text(parameters.output) };
  const rules = propertyOf(parameters.rules, 'values');
  if (!Array.isArray(rules) || rules.length === 0) return { problem: 'it has no rules (or the older Switch format)', left: '' };
  let left: string | null = null;
  const labels: Branching['labels'] = [];
  for (const [output, rule] of rules.entries()) {
    const condition = conditionOf(propertyOf(rule, 'conditions'));
    if (!condition || condition.operation !== 'equals') return { problem: `rule ${output + 1} is not one "equals" condition`, left: condition?.left ?? '' };
    if (left !== null && condition.left !== left) return { problem: `its rules test different values (${left.slice(0, 60)}, ${condition.left.slice(0, 60)})`, left };
    left = condition.left;
    const key = propertyOf(rule, 'renameOutput') === true ? text(propertyOf(rule, 'outputKey')) : '';
    labels.push({ equals: condition.right, output, label: (key || (typeof condition.right === 'string' ? condition.right : JSON.stringify(condition.right)) || `output ${output}`).slice(0, 100) });
  }
  const fallback = propertyOf(parameters.options, 'fallbackOutput');
  const other = fallback === 'extra' ? rules.length : typeof fallback === 'number' && Number.isInteger(fallback) && fallback >= 0 && fallback < rules.length ? fallback : null;
  return { left: left ?? '', labels, other, kind: 'string' };
}
