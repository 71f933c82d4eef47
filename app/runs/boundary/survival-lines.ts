import type { BoundaryReport } from '../../../src/inspect/index.ts';
import type { FactKind } from '../../../src/inspect/index.ts';
import { askedKinds } from '../../../src/inspect/index.ts';

const plural: Record<FactKind, string> = {
  duration: 'durations', money: 'money amounts', percentage: 'percentages', date: 'dates',
  number: 'numbers', id: 'ids', section: 'section references', condition: 'named conditions',
};

/** "10 of 10 durations dropped — question asks for duration", one line per kind asked for. */
export function survivalLines(report: BoundaryReport): { text: string; all: boolean }[] {
  const fromQuestion = new Set(askedKinds(report.question ?? ''));
  return report.asked.flatMap((kind) => {
    const counts = report.survival.byKind[kind];
    if (!counts || counts.total === 0) return [];
    const who = fromQuestion.has(kind) ? 'question asks' : "consumer's instructions ask";
    return [{ text: `${counts.dropped} of ${counts.total} ${plural[kind]} dropped — ${who} for ${kind}`, all: counts.dropped === counts.total }];
  });
}
