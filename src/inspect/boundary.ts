import type { RunMeta, TraceEvent } from '../trace/events.ts';
import { buildRunView, type Boundary } from '../trace/replay.ts';
import { stepRegistry, type StepRegistry } from '../steps/index.ts';
import { factKey, type FactKind } from './facts.ts';
import { directInputs, findQuestion, instructionText, receivedSources } from './consumer-prompt.ts';
import { askedKinds } from './question-kinds.ts';
import { askedFacts, questionForm, type AskedFact } from './relevance.ts';
import { factSurvival, type SurvivalFact, type SurvivalReport } from './survival.ts';
import { estimateSufficiency, goldFor, goldSufficiency, summarizeSufficiency, type BoundarySufficiency, type GoldFacts, type SufficiencySummary } from './sufficiency.ts';
import { labelOf } from '../trace/labels.ts';
import { ownContentWords } from './clauses.ts';
import { leadFact, type LeadFact } from './headline.ts';

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
  /** Fact kinds the question's form or the consumer's instructions ask for. */
  asked: FactKind[];
  /**
   * The source facts the question is about, most relevant first, each with its survival status
   * and why it was judged asked (relevance score, matched words, kind). Empty when no word of
   * the question is found near any fact; then the asked kinds decide.
   */
  askedFacts: AskedFact[];
  survival: SurvivalReport;
  lossy: boolean;
  /** Why the boundary is lossy; empty when it is not. */
  reasons: string[];
  /** Observations that do not make it lossy: partial drops, sources the consumer also reads. */
  notes: string[];
  /** Sources the consumer receives directly as well, so their facts are still within its reach. */
  sourcesAlsoReceived: string[];
  /** The asked fact that was lost first (the best-ranked reason), with the headline that names it; null when none was. */
  lead: LeadFact | null;
  /**
   * Whether the consumer needs the source's facts at all: false when it only chooses a route in
   * code from a label, so what the handoff dropped is not headlined as a loss.
   */
  factsNeeded: boolean;
}

export interface InspectOptions {
  /** Overrides the question found in the consumer's prompt. */
  question?: string;
  /**
   * By default a boundary is lossy when a fact the question is about (ranked by relevance, see
   * `askedFacts`) did not survive: an evidence step that keeps the one deadline that matters
   * and drops nineteen others is doing its job; so is one that keeps one complete answer where the
   * question matches two places about equally. Strict mode reaches further down the ranking and
   * flags any candidate lost; where only kinds are known (no word of the question found near any fact),
   * flags any dropped fact of an asked kind rather than only a kind dropped entirely.
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

/** Share of the best score from which a lost candidate is named as a reason, not a note. */
const STRONG = 0.8;

const where = (f: SurvivalFact) => (f.section ? `${f.section}, line ${f.line}` : `line ${f.line}`);

function lostAs(f: SurvivalFact): string {
  if (f.status === 'approximated') return `only approximated, as "${f.restatedAs}"`;
  if (f.status === 'changed') return `changed, to "${f.restatedAs}"`;
  return 'dropped';
}

/**
 * The question is about these facts. They come in groups, one per place (section and sentence):
 * the best answer may sit in one place and an also-likely one in another ("How fast…" matches
 * both the expedited and the standard deadline). The handoff is lossy when no place's asked
 * facts all survived: it kept no complete answer. A value kept once stands for its repeats in the same section
 * ("two days … such two-day period").
 */
/**
 * Whether one place's asked facts make a complete answer: every one of them kept, since a rule
 * said in several pieces ("may not introduce evidence … unless there is good cause") is not kept
 * by one piece. For a question a statement decides, a place with no clause (only figures or named
 * terms) counts only when no clause anywhere matched the question.
 */
function completeAnswer(group: AskedFact[], kept: (a: AskedFact) => boolean, decision: boolean, bestClause: number): boolean {
  if (!decision) return group.every(kept);
  const clauses = group.filter((a) => isClause(a.fact));
  // A figure or a named term alone does not decide it where a clause may: "30 days" kept is no
  // answer to "Will it be decided within 48 hours?" when what makes it 48 hours is gone, nor
  // "'cancelled'" to "Can I still cancel it?". Where no clause matches, they answer it as a figure
  // answers a quantity question.
  if (clauses.length === 0) return group.every(kept) && bestClause === 0;
  return group.every(kept);
}

const isClause = (f: SurvivalFact) => f.kind === 'condition' && f.unit !== undefined;

/**
 * What the handoff lost at the place that best matches a question a statement decides, when it
 * spoke to that place's rule there and got it wrong; a weaker place kept whole does not make up for
 * it, since the consumer reads the wrong rule where the question points.
 * - a prohibition or a finality said the other way round ("…which ends the public licence" for
 *   "doing so will not terminate this Public License");
 * - the rule restated (one of its clauses said otherwise) without another of its clauses ("The
 *   payment can be changed to a single different method, gift card included" for "If the user
 *   wants to change the payment method to gift card, it must have enough balance…").
 * An "if" restated as a plain statement alone does not count: a faithful paraphrase often drops a
 * condition's form while keeping its sense.
 */
function wrongAtBest(reachable: AskedFact[], groups: Map<string, AskedFact[]>, bestClause: number): { fact: AskedFact; how: string } | undefined {
  const top = reachable.find((a) => isClause(a.fact) && a.score === bestClause);
  if (!top) return undefined;
  const place = (groups.get(`${top.fact.source}|${top.fact.section}|${top.place}`) ?? []).filter((a) => isClause(a.fact));
  const flipped = place.find((a) => a.fact.status === 'changed' && (a.fact.unit === 'negation' || a.fact.unit === 'finality'));
  if (flipped) return { fact: flipped, how: 'said the other way round' };
  const dropped = place.find((a) => a.fact.status === 'dropped');
  return dropped && place.some((a) => a.fact.status === 'changed') ? { fact: dropped, how: 'left out of the rule the handoff restates' } : undefined;
}

/** Below this share of a stronger sentence's score in its own section, a sentence kept whole is not the answer (chosen on the tuned documents, 0.6–1.0 tried). */
const OUTRANKED = 0.7;

/**
 * Whether a sentence's rule is clearly outranked within its own section by a sentence whose clause
 * the handoff lost. The question points at that section, and there the best-matching sentence is
 * the rule; a neighbouring sentence kept whole ("The user needs to confirm the order id and the
 * reason" beside "An order can only be cancelled if its status is 'pending'") is the procedure
 * around it, not the answer. A lost clause that says one thing of its own and points elsewhere for
 * the rest ("only if the individual described in subparagraph (A)") outranks nothing.
 */
function outrankedInSection(group: AskedFact[], groups: Map<string, AskedFact[]>, kept: (a: AskedFact) => boolean): boolean {
  const first = group[0];
  if (!first) return false;
  const top = Math.max(...group.map((a) => a.score));
  for (const other of groups.values()) {
    if (other === group || other[0]?.fact.source !== first.fact.source || other[0]?.fact.section !== first.fact.section) continue;
    if (other.some((a) => isClause(a.fact) && !kept(a) && top < a.score * OUTRANKED && ownContentWords(a.fact.text).length >= 2)) return true;
  }
  return false;
}

function judgeAskedFacts(ranked: AskedFact[], result: SurvivalReport, asked: FactKind[], alsoReceived: string[], strict: boolean, reasons: string[], notes: string[], decision = false): AskedFact | null {
  const reachable = ranked.filter((a) => !alsoReceived.includes(a.fact.source));
  const keptKeys = new Set(result.facts.filter((f) => f.survived).map((f) => `${f.source}|${f.section}|${factKey(f)}`));
  const kept = (a: AskedFact) => a.status === 'survived' || keptKeys.has(`${a.fact.source}|${a.fact.section}|${factKey(a.fact)}`);
  const groups = new Map<string, AskedFact[]>();
  for (const a of reachable) {
    const key = `${a.fact.source}|${a.fact.section}|${a.place}`;
    const list = groups.get(key);
    if (list) list.push(a);
    else groups.set(key, [a]);
  }
  // Strict: every candidate counts, a complete answer elsewhere or not.
  const best = reachable[0]?.score ?? 0;
  const bestClause = Math.max(0, ...reachable.filter((a) => isClause(a.fact)).map((a) => a.score));
  const wholes = strict ? [] : [...groups.values()].filter((g) => completeAnswer(g, kept, decision, bestClause));
  const whole = wholes[0];
  // Where no place was kept whole the handoff is lossy anyway, and the reasons name the likeliest answers lost.
  const wrong = decision && whole ? wrongAtBest(reachable, groups, bestClause) : undefined;
  const complete = wrong ? undefined : wholes.find((g) => !decision || !outrankedInSection(g, groups, kept));
  const lost = reachable.filter((a) => !kept(a));
  const line = (a: AskedFact) => `question asks for "${a.fact.text}" (${a.fact.kind}, ${where(a.fact)}; ${a.why}): ${lostAs(a.fact)}`;
  let lead: AskedFact | null = null;
  if (wrong) {
    // The handoff got the best-matching rule wrong: that is the loss, whatever else it kept.
    lead = wrong.fact;
    reasons.push(`${line(wrong.fact)}; ${wrong.how} at the place that best matches the question, so the facts kept at ${whole?.[0] ? where(whole[0].fact) : 'another place'} do not answer it`);
    for (const a of lost) if (a !== wrong.fact) notes.push(`${line(a)} (a weaker candidate)`);
  } else if (complete) {
    for (const a of lost) notes.push(`${line(a)}; the facts asked at ${complete[0] ? where(complete[0].fact) : 'another place'} all survived`);
  } else {
    // The reasons name the likeliest answers lost; the further candidates are notes.
    const strong = lost.filter((a) => a.score >= best * STRONG);
    lead = (strong.length ? strong : lost)[0] ?? null;
    for (const a of strong.length ? strong : lost) reasons.push(line(a));
    for (const a of strong.length ? lost.filter((a) => !strong.includes(a)) : []) notes.push(`${line(a)} (a weaker candidate)`);
  }
  const askedSet = new Set(ranked.map((a) => a.fact));
  const others = result.facts.filter((f) => !askedSet.has(f) && asked.includes(f.kind) && !alsoReceived.includes(f.source));
  const otherDropped = others.filter((f) => !f.survived).length;
  if (otherDropped > 0) notes.push(`${otherDropped} of ${others.length} other ${asked.map((k) => plural[k]).join(' or ')} dropped; the question is not about them`);
  return lead;
}

/** No word of the question is found near any fact: what it asks is known by kind only. */
function judgeAskedKinds(result: SurvivalReport, asked: FactKind[], fromQuestion: FactKind[], alsoReceived: string[], opts: InspectOptions, reasons: string[], notes: string[]): void {
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
  const alsoReceived = receivedSources(boundary);
  const base = { boundaryId: boundary.id, producer: boundary.producer, consumer: boundary.consumer, binding: boundary.binding, question, survival: result, sourcesAlsoReceived: alsoReceived };
  // A router reads a label to choose a branch: the facts of the text behind that label are not its material.
  if (boundary.consumerRoutes) {
    const notes = result.dropped.length > 0
      ? [`${boundary.consumer} chooses a route in code from a label: the ${result.dropped.length} source fact${result.dropped.length === 1 ? '' : 's'} not in it are not its material`]
      : [];
    return { ...base, asked: [], askedFacts: [], lossy: false, reasons: [], notes, lead: null, factsNeeded: false };
  }
  const fromQuestion = question ? questionForm(question).wants : [];
  const fromInstructions = askedKinds(instructionText(boundary));
  const asked = [...new Set([...fromQuestion, ...fromInstructions])];
  const ranked = question ? askedFacts(question, result, boundary.sources, { strict: opts.strict }) : [];
  const reasons: string[] = [];
  const notes: string[] = [];
  let lost: AskedFact | null = null;
  if (ranked.length > 0) lost = judgeAskedFacts(ranked, result, asked, alsoReceived, opts.strict === true, reasons, notes, question ? questionForm(question).decision : false);
  else judgeAskedKinds(result, asked, fromQuestion, alsoReceived, opts, reasons, notes);
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
    ...base, asked, askedFacts: ranked, lossy: reasons.length > 0, reasons, notes,
    lead: lost && question ? leadFact(question, lost) : null, factsNeeded: true,
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

/**
 * Each boundary's sufficiency alone, for batch runs: where gold facts are known for a boundary
 * the estimate rests on them and skips the full inspection (the source's facts, the question's
 * relevance); elsewhere it is the estimate inspectRun gives.
 *
 * @example
 * const sufficiency = runSufficiency(meta, events, { gold: ['180 calendar days'] });
 */
export function runSufficiency(meta: RunMeta, events: readonly TraceEvent[], opts: { registry?: StepRegistry; gold?: GoldFacts } = {}): BoundarySufficiency[] {
  return boundarySufficiency(meta, buildRunView(meta, events, opts.registry ?? stepRegistry).boundaries, opts.gold);
}

/** runSufficiency over boundaries already built (a caller that measures more on them builds the view once). */
export function boundarySufficiency(meta: RunMeta, boundaries: readonly Boundary[], goldFacts?: GoldFacts): BoundarySufficiency[] {
  const cache = new Map<string, SurvivalReport>();
  return boundaries.map((b): BoundarySufficiency => {
    const gold = goldFor(goldFacts, b);
    let estimate;
    if (gold?.some((f) => f.trim() !== '')) estimate = goldSufficiency(b.intermediate, b.consumer, gold, directInputs(b));
    else {
      let survival = cache.get(b.producer);
      if (!survival) cache.set(b.producer, (survival = factSurvival(b.sources, b.intermediate)));
      estimate = estimateSufficiency(b, inspectBoundary(b, {}, survival));
    }
    return { boundaryId: b.id, producer: b.producer, consumer: b.consumer, estimate, label: labelOf(meta, b.id) };
  });
}
