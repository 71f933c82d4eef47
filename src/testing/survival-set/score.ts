import { inspectBoundary, type BoundaryReport } from '../../inspect/boundary.ts';
import type { SurvivalFact } from '../../inspect/survival.ts';
import type { Boundary } from '../../trace/replay.ts';
import { isHeldOut, loadSurvivalSet, locateFact, type LoadedDocument, type QuestionKind, type SetIntermediate, type SetQuestion } from './set.ts';

/**
 * Scores the boundary analysis against the labelled set: each hand-written intermediate is
 * handed, as a summary, to a consumer that answers the question, exactly as a
 * summarise-then-answer chain records it. Two judgements are scored:
 * - per fact, "an asked fact was dropped": the analysis' asked facts that did not survive
 *   (dropped or only approximated) against the gold facts the labels say did not survive;
 * - per intermediate, the boundary's lossy verdict against "some gold fact did not survive".
 * Quantity and condition questions are scored apart (`scoreSet(docs, kind)`): the figures of one
 * never hide the other's.
 */
export interface Counts {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
}

export interface DocumentScore {
  name: string;
  heldOut: boolean;
  questions: number;
  intermediates: number;
  facts: Counts;
  /** The part of `facts` on gold condition facts (tp and fn only): did the analysis name the dropped condition itself. */
  conditionFacts: Counts;
  verdict: Counts;
  faithful: { total: number; falseAlarms: number };
  /** Gold-approximated facts the analysis reported as approximations. */
  approximations: { total: number; reported: number };
  /** Per intermediate kind: how many there are and how many the analysis called lossy (numbers-only is where a dropped condition shows). */
  byKind: Record<IntermediateKind, { total: number; lossy: number }>;
}

type IntermediateKind = SetIntermediate['kind'];
const INTERMEDIATE_KINDS: IntermediateKind[] = ['faithful', 'lossy', 'numbers-only', 'vague'];
const emptyByKind = () => Object.fromEntries(INTERMEDIATE_KINDS.map((k) => [k, { total: 0, lossy: 0 }])) as DocumentScore['byKind'];

export interface Miss {
  document: string;
  question: string;
  questionKind: QuestionKind;
  kind: IntermediateKind;
  expectLossy: boolean;
  lossy: boolean;
  missedFacts: string[];
  extraFacts: string[];
  reasons: string[];
}

const empty = (): Counts => ({ tp: 0, fp: 0, fn: 0, tn: 0 });
export const precision = (c: Counts) => (c.tp + c.fp === 0 ? 1 : c.tp / (c.tp + c.fp));
export const recall = (c: Counts) => (c.tp + c.fn === 0 ? 1 : c.tp / (c.tp + c.fn));

export function boundaryFor(doc: LoadedDocument, question: string, intermediate: string): Boundary {
  return {
    id: 'data:summarise->answer:summary', producer: 'summarise', consumer: 'answer', binding: 'summary', intermediate,
    sources: [{ name: 'document', text: doc.text }],
    received: {
      messages: [],
      segments: [
        { kind: 'template', text: 'Answer the question from the summary.\nSummary:\n', tokens: 0 },
        { kind: 'binding:summary', text: intermediate, tokens: 0 },
        { kind: 'template', text: '\nQuestion: ', tokens: 0 },
        { kind: 'binding:question', text: question, tokens: 0 },
      ],
    },
    consumerOutput: undefined,
  };
}

/**
 * The source facts the analysis says were asked for and did not survive: those its lossy
 * verdict names as reasons. (When the handoff kept a complete answer, the other candidates it
 * dropped are notes, not claims that an asked fact was lost.)
 */
export function askedAndLost(report: BoundaryReport): SurvivalFact[] {
  if (report.askedFacts.length > 0) {
    const named = new Set(report.reasons);
    return report.lossy ? report.askedFacts.filter((a) => a.status !== 'survived' && [...named].some((r) => r.startsWith(`question asks for "${a.fact.text}" (${a.fact.kind}, ${a.fact.section}`))).map((a) => a.fact) : [];
  }
  // No word of the question found near any fact: the analysis knows only the kinds asked for.
  return report.survival.facts.filter((f) => report.asked.includes(f.kind) && !f.survived);
}

const overlaps = (f: SurvivalFact, span: { start: number; end: number }) => f.occurrences.some((o) => o.start < span.end && span.start < o.end);

/** Scores the questions of one kind; a document with none of that kind is left out. */
export function scoreSet(docs = loadSurvivalSet(), kind: QuestionKind = 'quantity'): { documents: DocumentScore[]; misses: Miss[] } {
  const documents: DocumentScore[] = [];
  const misses: Miss[] = [];
  for (const doc of docs) {
    const questions = doc.questions.filter((q) => q.kind === kind);
    if (questions.length === 0) continue;
    const score: DocumentScore = {
      name: doc.name, heldOut: isHeldOut(doc.name, kind), questions: questions.length, intermediates: 0,
      facts: empty(), conditionFacts: empty(), verdict: empty(), faithful: { total: 0, falseAlarms: 0 }, approximations: { total: 0, reported: 0 }, byKind: emptyByKind(),
    };
    for (const q of questions) {
      const spans = new Map(q.facts.map((f) => [f.id, locateFact(doc, q, f)]));
      for (const im of q.intermediates) scoreIntermediate(doc, q, im, spans, score, misses);
    }
    documents.push(score);
  }
  return { documents, misses };
}

function scoreIntermediate(doc: LoadedDocument, q: SetQuestion, im: SetIntermediate, spans: Map<string, { start: number; end: number } | null>, score: DocumentScore, misses: Miss[]) {
  score.intermediates++;
  const report = inspectBoundary(boundaryFor(doc, q.question, im.text));
  const lost = askedAndLost(report);
  const goldLost = q.facts.filter((f) => !im.survives.includes(f.id));
  const missedFacts: string[] = [];
  const extraFacts: string[] = [];
  for (const g of goldLost) {
    const span = spans.get(g.id);
    if (span && lost.some((f) => overlaps(f, span))) {
      score.facts.tp++;
      if (g.condition) score.conditionFacts.tp++;
    } else {
      score.facts.fn++;
      if (g.condition) score.conditionFacts.fn++;
      missedFacts.push(g.text);
    }
    if (im.approximated?.includes(g.id) && span) {
      score.approximations.total++;
      if (report.survival.facts.some((f) => f.status === 'approximated' && overlaps(f, span))) score.approximations.reported++;
    }
  }
  for (const f of lost) {
    if (!goldLost.some((g) => {
      const span = spans.get(g.id);
      return span !== null && span !== undefined && overlaps(f, span);
    })) {
      score.facts.fp++;
      extraFacts.push(`${f.text}@${f.section}`);
    }
  }
  const expectLossy = goldLost.length > 0;
  if (expectLossy && report.lossy) score.verdict.tp++;
  else if (expectLossy) score.verdict.fn++;
  else if (report.lossy) score.verdict.fp++;
  else score.verdict.tn++;
  if (im.kind === 'faithful') {
    score.faithful.total++;
    if (report.lossy) score.faithful.falseAlarms++;
  }
  score.byKind[im.kind].total++;
  if (report.lossy) score.byKind[im.kind].lossy++;
  if (expectLossy !== report.lossy || missedFacts.length || extraFacts.length) {
    misses.push({ document: doc.name, question: q.id, questionKind: q.kind, kind: im.kind, expectLossy, lossy: report.lossy, missedFacts, extraFacts, reasons: report.reasons });
  }
}

export function total(documents: DocumentScore[], filter: (d: DocumentScore) => boolean = () => true): DocumentScore {
  const all: DocumentScore = { name: 'overall', heldOut: false, questions: 0, intermediates: 0, facts: empty(), conditionFacts: empty(), verdict: empty(), faithful: { total: 0, falseAlarms: 0 }, approximations: { total: 0, reported: 0 }, byKind: emptyByKind() };
  for (const d of documents.filter(filter)) {
    all.questions += d.questions;
    all.intermediates += d.intermediates;
    for (const k of ['tp', 'fp', 'fn', 'tn'] as const) {
      all.facts[k] += d.facts[k];
      all.conditionFacts[k] += d.conditionFacts[k];
      all.verdict[k] += d.verdict[k];
    }
    all.faithful.total += d.faithful.total;
    all.faithful.falseAlarms += d.faithful.falseAlarms;
    all.approximations.total += d.approximations.total;
    all.approximations.reported += d.approximations.reported;
    for (const k of INTERMEDIATE_KINDS) {
      all.byKind[k].total += d.byKind[k].total;
      all.byKind[k].lossy += d.byKind[k].lossy;
    }
  }
  return all;
}
