import { goldFactsMissing, goldFactSurvives } from '../inspect/sufficiency.ts';
import { compilePattern } from '../schema/pattern.ts';
import { deepEqual } from '../schema/interpret.ts';
import type { DatasetItem, Expected } from './dataset.ts';
import type { ScorerSpec } from './scorer-spec.ts';
import type { ScoreResult } from './item-result.ts';

/** What a scorer sees of one finished run. */
export interface RunOutcome {
  status: string;
  output: unknown;
  /** The step the run ended in (its terminal), when it ended in one. */
  terminalStep?: string;
  /** Every branch a router chose on the way, by target step id. */
  routes: string[];
}

export type { ScoreResult } from './item-result.ts';

const abstained = (o: RunOutcome) => o.status === 'abstained' || o.status === 'escalated';

/** The value at a dotted path (`answer`, `items.0.id`); own properties only, so `__proto__` reads nothing. */
export function valueAt(value: unknown, path: string | undefined): unknown {
  if (!path) return value;
  let current = value;
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

const loose = (s: string) => s.toLowerCase().replace(/[–—]/g, '-').replace(/\s+/g, ' ').trim();
const show = (v: unknown) => {
  const text = typeof v === 'string' ? v : JSON.stringify(v) ?? String(v);
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
};
const textOf = (v: unknown): string => (typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v) ?? '');

function numbersIn(value: unknown): number[] {
  if (typeof value === 'number') return Number.isFinite(value) ? [value] : [];
  if (typeof value !== 'string') return [];
  return [...value.replace(/(\d),(\d{3})/g, '$1$2').matchAll(/-?\d+(?:\.\d+)?/g)].map((m) => Number(m[0]));
}

/** The scorers the expected keys choose when none are named. */
export function defaultScorers(expected: Expected): ScorerSpec[] {
  const specs: ScorerSpec[] = [];
  if (expected.facts?.length) specs.push({ type: 'facts' });
  if (expected.output !== undefined) specs.push({ type: 'exact' });
  if (expected.route !== undefined) specs.push({ type: 'route' });
  if (expected.abstain !== undefined) specs.push({ type: 'abstain' });
  return specs;
}

export function scorerName(spec: ScorerSpec): string {
  if (spec.type === 'regex') return `regex:${spec.pattern}`;
  if (spec.type === 'judge') return `judge:${spec.chain}${spec.path ? `:${spec.path}` : ''}`;
  return 'path' in spec && spec.path ? `${spec.type}:${spec.path}` : spec.type;
}

function scoreOne(spec: Exclude<ScorerSpec, { type: 'judge' }>, expected: Expected, outcome: RunOutcome): Omit<ScoreResult, 'scorer'> {
  if (spec.type === 'abstain') {
    const want = expected.abstain === true;
    return { pass: want === abstained(outcome), detail: want ? (abstained(outcome) ? 'abstained, as expected' : `expected an abstention, the run ${outcome.status}`) : abstained(outcome) ? `abstained (${outcome.status}) where an answer was expected` : 'answered, as expected' };
  }
  if (spec.type === 'route') {
    if (expected.route === undefined) return { pass: false, detail: 'the item has no expected.route' };
    const reached = [...new Set([...outcome.routes, ...(outcome.terminalStep ? [outcome.terminalStep] : [])])];
    return reached.includes(expected.route)
      ? { pass: true, detail: `reached ${expected.route}` }
      : { pass: false, detail: `expected ${expected.route}, reached ${reached.join(' → ') || 'nothing'}` };
  }
  if (abstained(outcome)) return { pass: false, detail: `the run ${outcome.status}: no output to score` };
  if (outcome.status !== 'succeeded') return { pass: false, detail: `the run ${outcome.status}` };
  const got = valueAt(outcome.output, 'path' in spec ? spec.path : undefined);
  switch (spec.type) {
    case 'facts': {
      const facts = expected.facts ?? [];
      if (facts.length === 0) return { pass: false, detail: 'the item has no expected.facts' };
      const missing = goldFactsMissing(facts, got);
      return missing.length === 0 ? { pass: true, detail: `all ${facts.length} facts present` } : { pass: false, detail: `missing: ${missing.join('; ')}` };
    }
    case 'exact':
    case 'json-field': {
      const want = spec.type === 'json-field' && expected.output !== null && typeof expected.output === 'object' ? valueAt(expected.output, spec.path) : expected.output;
      if (want === undefined) return { pass: false, detail: 'the item has no expected.output' };
      const pass = typeof want === 'string' && typeof got === 'string' ? loose(want) === loose(got) : deepEqual(want, got);
      return { pass, detail: pass ? 'equal' : `expected ${show(want)}, got ${show(got)}` };
    }
    case 'contains': {
      const want = spec.text ?? (typeof expected.output === 'string' ? expected.output : undefined);
      if (want === undefined) return { pass: false, detail: 'contains needs a text, or a string expected.output' };
      const pass = loose(textOf(got)).includes(loose(want));
      return { pass, detail: pass ? `contains "${show(want)}"` : `"${show(want)}" not found` };
    }
    case 'number': {
      const want = expected.output;
      // "180 days" is compared with its unit, on meaning ("180-day period" passes, "180 hours" does not).
      if (typeof want === 'string' && /[a-z%$€£]/i.test(want)) {
        const pass = goldFactSurvives(want, got);
        return { pass, detail: pass ? `${want} present` : `${want} not found in ${show(got)}` };
      }
      const target = typeof want === 'number' ? want : typeof want === 'string' ? Number(want) : NaN;
      if (!Number.isFinite(target)) return { pass: false, detail: 'number needs a numeric expected.output' };
      const tolerance = spec.tolerance ?? 0;
      const found = numbersIn(got);
      const pass = found.some((n) => Math.abs(n - target) <= tolerance);
      return { pass, detail: pass ? `${target} present` : `expected ${target}${tolerance ? ` ± ${tolerance}` : ''}, found ${found.slice(0, 5).join(', ') || 'no number'}` };
    }
    case 'regex': {
      const compiled = compilePattern(spec.pattern);
      if (!compiled.ok) return { pass: false, detail: `the pattern cannot run in linear time: ${compiled.problem}` };
      const pass = compiled.pattern.test(textOf(got));
      return { pass, detail: pass ? 'matches' : 'no match' };
    }
  }
}

/**
 * Scores one item's run. An item passes when every scorer passes; with `expected.abstain`
 * true, abstaining is the whole answer and the other scorers are not asked.
 *
 * @example
 * scoreItem(item, [{ type: 'facts' }], { status: 'succeeded', output: { answer: 'within 180 days' }, routes: [] });
 */
export function scoreItem(item: DatasetItem, specs: readonly ScorerSpec[] | undefined, outcome: RunOutcome): { pass: boolean; scores: ScoreResult[] } {
  let chosen = specs?.length ? [...specs] : defaultScorers(item.expected);
  if (item.expected.abstain === true) chosen = [{ type: 'abstain' }];
  if (chosen.length === 0) return { pass: false, scores: [{ scorer: 'none', pass: false, detail: 'no scorer named and the item has no expected keys' }] };
  // A judge runs a chain, so it is scored where runs are made (runEval), not here.
  const scores = chosen.filter((spec): spec is Exclude<ScorerSpec, { type: 'judge' }> => spec.type !== 'judge').map((spec) => ({ scorer: scorerName(spec), ...scoreOne(spec, item.expected, outcome) }));
  return { pass: scores.every((s) => s.pass), scores };
}
