import { isRecord } from '../files/json-value.ts';
import { text } from './dify-graph.ts';
import { numberOf } from './model-settings.ts';

/**
 * A Dify if-else node's cases as a router's routes. A router branches in code on one value, so a
 * case carries over when every condition of every case tests the same variable for equality
 * ("is", "=", "in") or emptiness ("empty", "null": a route on an empty value, taken when the value
 * is missing, null, "", [] or {} as Dify's `not value` is, but for 0 and false) or, in a plain
 * if/else, for their negations ("is not", "≠", "not in", "not empty", "not null": the labels then
 * go to the else branch and anything else to the case). A value left out equals no label, in
 * Dify as here (the router takes "otherwise" for it, or its empty route). Conditions a router
 * cannot decide ("contains", "start with", ">") are named, never approximated.
 */

export interface RouteLabel { equals?: unknown; when?: 'empty'; label: string; handle: string }

export interface IfElseRoutes {
  /** The variable every condition tests: `[node, variable]`. */
  selector: string[];
  /** In the order Dify tries them: the first equal label takes its branch. */
  routes: RouteLabel[];
  /** The handle taken when no label matches (Dify's else, or the case of a negated test). */
  otherwise: string;
  /** The conditions as Dify states them, for the fidelity report. */
  stated: string;
}

const POSITIVE = new Set(['is', '=', 'in', 'empty', 'null']);
const NEGATED: Record<string, string> = { 'is not': 'is', '≠': '=', 'not in': 'in', 'not empty': 'empty', 'not null': 'null' };
/** Tests a router takes with its route on an empty value (Dify's null is a value not there, which is empty here too). */
const EMPTY = new Set(['empty', 'null']);

interface Condition { selector: string[]; operator: string; value: unknown }

function labelsOf(c: Condition, operator: string): unknown[] | string {
  if (EMPTY.has(operator)) return [EMPTY_ROUTE];
  const labels = operator === 'in' ? (Array.isArray(c.value) ? c.value.map((v) => text(v)) : []) : null;
  if (labels?.some((l) => l === '') || (!labels && operator !== '=' && c.value === '')) return 'a route on "" is a design error here (it reads as a label nobody typed)';
  if (labels) return labels.length ? labels : 'it names no values';
  if (operator === '=') {
    const n = numberOf(c.value);
    return n === null ? `${JSON.stringify(c.value)} is not a number` : [n];
  }
  return [typeof c.value === 'string' ? c.value : JSON.stringify(c.value) ?? ''];
}

/** The one label an emptiness test gives: a route on an empty value, not a value to equal. */
const EMPTY_ROUTE = Symbol('empty');

const statedIn = (nameOf: (selector: string[]) => string) => (c: Condition) => `${nameOf(c.selector)} ${c.operator}${(c.operator.endsWith('empty') || c.operator.endsWith('null')) ? '' : ` ${JSON.stringify(c.value)}`}`;

/** The router an if-else node becomes, or why it cannot be one. */
export function ifElseRoutes(data: Record<string, unknown>, nameOf: (selector: string[]) => string): IfElseRoutes | { problem: string } {
  const statedOf = statedIn(nameOf);
  const readCase = (c: Record<string, unknown>, handle: string) => ({
    handle,
    any: text(c.logical_operator) === 'or',
    conditions: (Array.isArray(c.conditions) ? c.conditions.filter(isRecord) : []).map((d): Condition => ({
      selector: Array.isArray(d.variable_selector) ? d.variable_selector.map(text) : [],
      operator: text(d.comparison_operator),
      value: d.value,
    })),
  });
  const cases = Array.isArray(data.cases) && data.cases.length > 0
    ? data.cases.filter(isRecord).map((c) => readCase(c, text(c.case_id) || text(c.id)))
    : [readCase(data, 'true')];
  const all = cases.flatMap((c) => c.conditions);
  const first = all[0];
  if (!first || cases.some((c) => c.conditions.length === 0)) return { problem: 'a case has no condition' };
  const stated = cases.map((c) => c.conditions.map(statedOf).join(c.any ? ' or ' : ' and ')).join('; else if ');
  const other = all.find((c) => c.selector.join('.') !== first.selector.join('.'));
  if (other) return { problem: `it tests ${nameOf(first.selector)} and ${nameOf(other.selector)}; a router branches on one value` };
  const unsupported = all.find((c) => !POSITIVE.has(c.operator) && !NEGATED[c.operator]);
  if (unsupported) return { problem: `it tests ${statedOf(unsupported)}; a router branches on a value equalling a label (is, =, in and their negations), and no step here decides "${unsupported.operator}" without running code` };

  const routes: RouteLabel[] = [];
  const add = (labels: unknown[], handle: string) => {
    for (const equals of labels) {
      // The first case to test emptiness takes it, as Dify tries its cases in order.
      if (equals === EMPTY_ROUTE) {
        if (!routes.some((r) => r.when === 'empty')) routes.push({ when: 'empty', label: 'empty', handle });
      } else if (!routes.some((r) => r.when !== 'empty' && JSON.stringify(r.equals) === JSON.stringify(equals))) routes.push({ equals, label: typeof equals === 'string' ? (equals || '(empty)') : JSON.stringify(equals), handle });
    }
  };
  const negated = all.filter((c) => NEGATED[c.operator]);
  if (negated.length > 0) {
    // "not a and not b": a and b go to the else branch, anything else to the case. Only as a plain if/else.
    const only = cases[0];
    if (cases.length > 1 || negated.length !== all.length || !only || (only.any && all.length > 1)) return { problem: `it tests ${stated}; a router can take a negated test only as the single case of an if/else, all its conditions negated and joined by "and"` };
    for (const c of all) {
      const labels = labelsOf(c, NEGATED[c.operator] as string);
      if (typeof labels === 'string') return { problem: `it tests ${statedOf(c)}: ${labels}` };
      add(labels, 'false');
    }
    return { selector: first.selector, routes, otherwise: only.handle, stated };
  }
  for (const c of cases) {
    if (!c.any && c.conditions.length > 1) return { problem: `it tests ${stated}: "and" of equalities on one value holds only when they name the same label` };
    for (const d of c.conditions) {
      const labels = labelsOf(d, d.operator);
      if (typeof labels === 'string') return { problem: `it tests ${statedOf(d)}: ${labels}` };
      add(labels, c.handle);
    }
  }
  return { selector: first.selector, routes, otherwise: 'false', stated };
}
