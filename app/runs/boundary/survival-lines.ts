import type { AskedFact, BoundaryReport } from '../../../src/inspect/index.ts';
import type { FactKind } from '../../../src/inspect/index.ts';
import { questionForm } from '../../../src/inspect/index.ts';

const plural: Record<FactKind, string> = {
  duration: 'durations', money: 'money amounts', percentage: 'percentages', date: 'dates',
  number: 'numbers', id: 'ids', section: 'section references', condition: 'named conditions',
};

/** "10 of 10 durations dropped — question asks for duration", one line per kind asked for. */
export function survivalLines(report: BoundaryReport): { text: string; all: boolean }[] {
  const fromQuestion = new Set(questionForm(report.question ?? '').wants);
  return report.asked.flatMap((kind) => {
    const counts = report.survival.byKind[kind];
    if (!counts || counts.total === 0) return [];
    const who = fromQuestion.has(kind) ? 'question asks' : "consumer's instructions ask";
    return [{ text: `${counts.dropped} of ${counts.total} ${plural[kind]} dropped — ${who} for ${kind}`, all: counts.dropped === counts.total }];
  });
}

const statusWords = (a: AskedFact) =>
  a.status === 'survived' ? 'kept' : a.status === 'dropped' ? 'dropped' : `${a.status} as “${a.fact.restatedAs ?? ''}”`;

/**
 * The facts the question is about, best first, each with why it was judged asked:
 * "“180-day period” dropped — score 17.2 (best 19.2); matched day, request, reconsideration; a duration, as "How many days" asks".
 */
export function askedFactLines(report: BoundaryReport, limit = 5): { text: string; lost: boolean; why: string }[] {
  return report.askedFacts.slice(0, limit).map((a) => ({
    text: `“${a.fact.text}” (${a.fact.section ? `${a.fact.section}, ` : ''}line ${a.fact.line}) ${statusWords(a)}`,
    lost: a.status !== 'survived',
    why: a.why,
  }));
}
