import type { ClauseType } from './clauses.ts';
import { askedFacts, questionForm } from './relevance.ts';
import { factSurvival, type SurvivalReport } from './survival.ts';

/**
 * The named conditions a question turns on, found before any run: the condition clauses of the
 * source (exceptions, prerequisites, scopes, definitions, negations, finality, limits) that the
 * question's words rank as what it asks, as the boundary check ranks them after a run. "When does
 * an appeal count as urgent?" over a handbook needs "where a delay could seriously harm the
 * member's health"; a summary that drops it still reads well and answers wrong.
 */
export interface NeededCondition {
  /** Which kind of condition the clause is. */
  type: ClauseType;
  /** The clause in the source's own words. */
  text: string;
  /** The source it is in (a chain input name). */
  source: string;
  /** Its section id in that source ('' when the source has no sections). */
  section: string;
  /** 1-based line in the source. */
  line: number;
  /** The question that needs it. */
  question: string;
  /** Why the question was judged to ask for it (relevance score, matched words). */
  why: string;
}

export interface Source {
  name: string;
  text: string;
}

/**
 * One analysis per source set: the survival report against an empty handoff is every fact of
 * the sources with its section and sentence, which is what relevance ranks. A designer asks this
 * on every edit of a chain whose documents do not change, so the last few are kept.
 */
const reports = new Map<string, SurvivalReport>();
const REPORTS_KEPT = 8;
/** The share of the best clause's relevance score a clause needs to be named as needed too. */
const NEAR_BEST = 0.7;

function sourceFacts(sources: readonly Source[]): SurvivalReport {
  const key = sources.map((s) => `${s.name}\u0000${s.text}`).join('\u0001');
  let report = reports.get(key);
  if (!report) {
    if (reports.size >= REPORTS_KEPT) reports.delete(reports.keys().next().value as string);
    report = factSurvival(sources, '');
    reports.set(key, report);
  }
  return report;
}

/**
 * The condition clauses of `sources` that `questions` turn on, in source order, each once (with
 * the first question that needs it). Named terms alone ("urgent") are left out: the question
 * already says them; what it needs is the clause that says when they apply.
 *
 * @example
 * conditionsNeeded([{ name: 'document', text: handbook }], ['When does an appeal count as urgent?'])
 * // → [{ type: 'scope', text: "where a delay could seriously harm the member's health", section: '4.3', … }]
 */
export function conditionsNeeded(sources: readonly Source[], questions: readonly string[]): NeededCondition[] {
  const usable = sources.filter((s) => s.text.trim());
  // A question whose form wants another kind of answer ("How many days…") is never answered by a
  // condition (askedFacts ranks only the kinds it wants): the source's analysis is skipped for it.
  const asking = questions.filter((q) => {
    const wants = q.trim() ? questionForm(q).wants : [];
    return q.trim() !== '' && (wants.length === 0 || wants.includes('condition'));
  });
  if (usable.length === 0 || asking.length === 0) return [];
  const report = sourceFacts(usable);
  const found = new Map<string, NeededCondition>();
  for (const question of asking) {
    const ranked = askedFacts(question, report, usable).filter((a) => a.fact.kind === 'condition' && a.fact.unit !== undefined);
    // A card or a warning names what the question turns on, not every clause that shares a word
    // with it: a clause scoring under NEAR_BEST of the best one is a neighbour, left out.
    const best = ranked.reduce((max, a) => Math.max(max, a.score), 0);
    for (const asked of ranked) {
      const { fact } = asked;
      if (asked.score < best * NEAR_BEST) continue;
      const key = `${fact.source}|${fact.start}`;
      if (found.has(key)) continue;
      found.set(key, { type: fact.unit as ClauseType, text: fact.text, source: fact.source, section: fact.section, line: fact.line, question, why: asked.why });
    }
  }
  const order = new Map(usable.map((s, i) => [s.name, i]));
  return [...found.values()].sort((a, b) => (order.get(a.source) ?? 0) - (order.get(b.source) ?? 0) || a.line - b.line);
}

const typeWords: Record<ClauseType, string> = {
  exception: 'an exception',
  prerequisite: 'a condition to be met first',
  scope: 'what it applies to',
  definition: 'a definition',
  negation: 'a "no" or "not"',
  finality: 'whether it is final',
  limit: 'a limit in words',
  obligation: 'what must be done',
  permission: 'what may be done',
};

/** How a needed condition reads on a card or in a message: “…” (4.3, a definition). */
export function describeCondition(c: Pick<NeededCondition, 'text' | 'section' | 'line' | 'type'>): string {
  return `“${c.text}” (${c.section ? `section ${c.section}` : `line ${c.line}`}, ${typeWords[c.type]})`;
}
