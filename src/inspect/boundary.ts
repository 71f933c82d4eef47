import type { RunMeta, TraceEvent } from '../trace/events.ts';
import { buildRunView, type Boundary } from '../trace/replay.ts';
import { stepRegistry, type StepRegistry } from '../steps/index.ts';
import type { FactKind } from './facts.ts';
import { findQuestion, instructionText, receivedSources } from './consumer-prompt.ts';
import { askedKinds } from './question-kinds.ts';
import { factSurvival, type SurvivalReport } from './survival.ts';
import { estimateSufficiency, goldFor, summarizeSufficiency, type BoundarySufficiency, type GoldFacts, type SufficiencySummary } from './sufficiency.ts';
import { labelOf } from '../trace/labels.ts';

/**
 * Judges one handoff: which source facts the intermediate dropped, what the consumer was
 * asked, and whether what it was asked for is exactly what went missing (a lossy handoff).
 */
export interface BoundaryReport {
  boundaryId: string;
  producer: string;
  consumer: string;
  binding: string;
  /** The question the consumer answered, if one was found or given. */
  question: string | null;
  /** Fact kinds the question or the consumer's instructions ask for. */
  asked: FactKind[];
  survival: SurvivalReport;
  lossy: boolean;
  /** Why the boundary is lossy; empty when it is not. */
  reasons: string[];
  /** Observations that do not make it lossy: partial drops, sources the consumer also reads. */
  notes: string[];
  /** Sources the consumer receives directly as well, so their facts are still within its reach. */
  sourcesAlsoReceived: string[];
}

export interface InspectOptions {
  /** Overrides the question found in the consumer's prompt. */
  question?: string;
  /**
   * By default a boundary is lossy when every fact of an asked kind was dropped: an
   * evidence step that keeps the one deadline that matters and drops nineteen others is
   * doing its job. Strict mode flags any dropped fact of an asked kind.
   */
  strict?: boolean;
}

const plural: Record<FactKind, string> = {
  duration: 'durations', money: 'money amounts', percentage: 'percentages', date: 'dates',
  number: 'numbers', id: 'ids', section: 'section references', condition: 'named conditions',
};
// "deadline" and "when" are answered by a duration or a date: either kind keeping it counts.
const temporal = new Set<FactKind>(['duration', 'date']);

function askedGroups(asked: FactKind[]): FactKind[][] {
  const time = asked.filter((k) => temporal.has(k));
  return [...(time.length ? [time] : []), ...asked.filter((k) => !temporal.has(k)).map((k) => [k])];
}

/** No text and no figure anywhere in the value (booleans and nulls carry no source fact). */
function isEmptyHandoff(value: unknown, depth = 0): boolean {
  if (depth > 64) return false;
  if (typeof value === 'string') return value.trim() === '';
  if (typeof value === 'number') return false;
  if (Array.isArray(value)) return value.every((v) => isEmptyHandoff(v, depth + 1));
  if (value !== null && typeof value === 'object') return Object.values(value).every((v) => isEmptyHandoff(v, depth + 1));
  return true;
}

/**
 * @example
 * const view = buildRunView(meta, events);
 * const report = inspectBoundary(view.boundaries[0]!);
 * if (report.lossy) console.log(report.reasons.join('; '));
 */
export function inspectBoundary(boundary: Boundary, opts: InspectOptions = {}, survival?: SurvivalReport): BoundaryReport {
  const result = survival ?? factSurvival(boundary.sources, boundary.intermediate);
  const question = opts.question ?? findQuestion(boundary);
  const fromQuestion = askedKinds(question ?? '');
  const fromInstructions = askedKinds(instructionText(boundary));
  const asked = [...new Set([...fromQuestion, ...fromInstructions])];
  const alsoReceived = receivedSources(boundary);
  const reasons: string[] = [];
  const notes: string[] = [];
  for (const group of askedGroups(asked)) {
    const who = group.some((k) => fromQuestion.includes(k)) ? 'question asks' : 'instructions ask';
    const counted = result.facts.filter((f) => group.includes(f.kind) && !alsoReceived.includes(f.source));
    const dropped = counted.filter((f) => !f.survived).length;
    if (dropped === 0) continue;
    const parts = group
      .map((kind) => {
        const ofKind = counted.filter((f) => f.kind === kind);
        return ofKind.length ? `${ofKind.filter((f) => !f.survived).length} of ${ofKind.length} ${plural[kind]}` : '';
      })
      .filter(Boolean)
      .join(' and ');
    const line = `${who} for ${group.join(' or ')}; ${parts} dropped`;
    if (dropped === counted.length || opts.strict) reasons.push(line);
    else notes.push(`${line}, ${counted.length - dropped} kept`);
  }
  // An empty handoff (no text, no figures: an empty selection) lost every fact, whatever the
  // consumer asks: `{"relevant_sections": []}` handed to a gate is not "ok".
  const reachable = result.facts.filter((f) => !alsoReceived.includes(f.source));
  if (reasons.length === 0 && reachable.length > 0 && isEmptyHandoff(boundary.intermediate)) {
    reasons.push(`the handoff is empty: none of the ${reachable.length} source fact${reachable.length === 1 ? '' : 's'} reached ${boundary.consumer}`);
  }
  for (const name of alsoReceived) {
    if (result.dropped.some((f) => f.source === name)) notes.push(`${boundary.consumer} also receives "${name}" directly, so facts dropped from it are still within its reach`);
  }
  return {
    boundaryId: boundary.id, producer: boundary.producer, consumer: boundary.consumer, binding: boundary.binding,
    question, asked, survival: result, lossy: reasons.length > 0, reasons, notes, sourcesAlsoReceived: alsoReceived,
  };
}

export interface RunInspection {
  runId: string;
  chainName: string;
  status: string;
  boundaries: BoundaryReport[];
  /** Per boundary, in the same order: the estimated sufficiency and the human label, if any. */
  sufficiency: BoundarySufficiency[];
  sufficiencySummary: SufficiencySummary;
}

/** Every boundary of a stored run. A producer feeding several consumers is analysed once. */
export function inspectRun(meta: RunMeta, events: readonly TraceEvent[], opts: InspectOptions & { registry?: StepRegistry; gold?: GoldFacts } = {}): RunInspection {
  const view = buildRunView(meta, events, opts.registry ?? stepRegistry);
  const cache = new Map<string, SurvivalReport>();
  const boundaries = view.boundaries.map((b) => {
    let survival = cache.get(b.producer);
    if (!survival) {
      survival = factSurvival(b.sources, b.intermediate);
      cache.set(b.producer, survival);
    }
    return inspectBoundary(b, opts, survival);
  });
  const sufficiency = view.boundaries.map((b, i): BoundarySufficiency => ({
    boundaryId: b.id, producer: b.producer, consumer: b.consumer,
    estimate: estimateSufficiency(b, boundaries[i] as BoundaryReport, goldFor(opts.gold, b)), label: labelOf(meta, b.id),
  }));
  return { runId: meta.id, chainName: meta.chainName, status: meta.status, boundaries, sufficiency, sufficiencySummary: summarizeSufficiency(sufficiency) };
}
