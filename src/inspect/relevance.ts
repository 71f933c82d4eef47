import type { FactKind } from './facts.ts';
import { factPlaces, type FactStatus, type SurvivalFact, type SurvivalReport } from './survival.ts';
import { matchesOf } from './matches.ts';
import { contentWords } from './clause-survival.ts';
import { meaningOf, withPhrasalVerbs } from './same-meaning.ts';
import { stem } from './stem.ts';
import { extractFacts } from './facts.ts';

/**
 * What a question asks, as source facts ranked by relevance to it: BM25 of the question's words against each fact's own text, the
 * words right around it, its sentence and its section's headings; times a preference for the
 * kind of answer the question's form wants ("How soon…" a length of time, "What is the most…"
 * a quantity, "Which section…" a reference). The facts within reach of the best score are the
 * ones asked. No list of topic words: "urgent" asks for urgent things only by matching them.
 */
export interface AskedFact {
  fact: SurvivalFact;
  status: FactStatus;
  /** Relevance: the BM25 score times the kind preference, rounded. */
  score: number;
  /** The question's words (as indexed: lowercase, stemmed) found around the fact. */
  matched: string[];
  /** The fact's kind is one the question's form wants. */
  kindMatch: boolean;
  /** Where the fact is stated best for this question: the start of that sentence in its source. */
  place: number;
  /** Why it was judged asked, in words: "score 7.1 (best); matched reconsideration, request; a duration, as "how long" asks". */
  why: string;
}

export interface QuestionForm {
  /** The kinds of answer the question's form wants; empty when it says nothing about the kind (a yes/no question). */
  wants: FactKind[];
  /** The phrase that says so ("how long", "what is the most"), for the explanation. */
  phrase: string | null;
  /** The words to match against the source (stemmed; stop words and the question's scaffolding removed). */
  terms: string[];
  /**
   * Each term's weight, in the order of `terms`: a word inside an "of …" modifier ("…a
   * reconsideration of a denied claim") says which thing is meant, not what is asked about it,
   * and weighs less than the question's verb and its object.
   */
  weights: number[];
  /** A yes/no or what-happens question: what decides it is a statement (a condition), not a figure. */
  decision: boolean;
}

/** A sentence of the question opening with an auxiliary ("Does…", "Can it…", "Is the…"), after a clause setting the scene or not ("If my supplier represents me, can it…"). */
const yesNoRe = /(?:^|[.!?]\s+)\W*(?:(?:if|when|once|after|before|since|because|as long as)\b[^,.?!]{1,120},\s*)?(?:is|are|am|was|were|do|does|did|can|could|may|might|must|should|will|would|has|have)\b/i;
/** Questions whose answer is a statement whatever their interrogative: what happens, what counts as, what is final. */
const statementRe = /\bwhat (?:happens|if)\b|^\W*when (?:will|would)\b|\bwhen (?:does|do|is|are|will)\b[^?]*?\b(?:count(?:s|ed)? as|considered|deemed|treated as)\b|\b(?:is|are)\b[^?.]{0,50}?\b(?:final|binding|conclusive|appealable)\b/i;

const MODIFIER_WEIGHT = 0.6;
/** An "of" phrase, up to the next clause break or connective. */
const ofPhraseRe = /\bof\b([^,;:?!.]*?)(?=[,;:?!.]|\b(?:and|or|if|when|because|while|so|but)\b|$)/gi;

const stopWords = new Set(('a an and are as at be been by can could do does did for from had has have how i if in into is it its may me might my no not of on or our shall should so such than that the their them then there these they this those to under upon was we were what when where which who whom whose why will with would you your ' +
  'get gets got give given any all each every other also only just about after before between within without per via out up down over ' +
  // The question's own scaffolding: how it asks, not what about.
  'long soon fast quickly often much many most least more less still').split(' '));

export { stem };

export function processTerm(term: string): string | null {
  const t = term.toLowerCase();
  if (t.length < 2 || stopWords.has(t) || /^\d+$/.test(t)) return null;
  return stem(t);
}

const timeUnit = String.raw`(?:calendar |business |working )?(?:minutes?|hours?|days?|weeks?|months?|years?)`;
const quantity: FactKind[] = ['money', 'number', 'percentage', 'duration'];

/**
 * The answer kinds a question's form asks for. These are the forms of a question (its
 * interrogative and the measure it names), not topics: "How soon" wants a length of time
 * whatever it is about.
 */
const forms: { re: RegExp; wants: FactKind[] }[] = [
  { re: new RegExp(`\\bhow (?:long|soon|fast|quickly|late|early|often)\\b|\\b(?:within |after |for )?how many ${timeUnit}\\b|\\bhow much (?:time|notice|longer|later|earlier|sooner|extra time|additional time|more time)\\b|\\b(?:what|which)(?: is| are)?(?: the)? (?:deadlines?|time ?frames?|time limits?|periods?|cure periods?)\\b|\\bby when\\b`, 'i'), wants: ['duration', 'date'] },
  // "When…" asks for a time where it opens the question or is followed by its verb; inside a
  // clause ("…offered when a flight was cancelled?") it is a condition, not the thing asked.
  { re: /\b(?:on |as of |by |from )?(?:what|which) (?:date|day|year|month)\b|^\W*when\b|\bwhen (?:must|should|do|does|did|can|could|is|are|was|were|will|would|has|have)\b/i, wants: ['date', 'duration'] },
  { re: /\bhow much\b|\b(?:what|which) (?:amount|price|fee|cost)\b|\bcosts?\b|\bprice\b|\bcompensation\b|\bdollars?\b|\$/i, wants: ['money', 'percentage'] },
  { re: /\b(?:what|which) (?:percent(?:age)?|share|proportion|fraction|rate|interest rate)\b|\bpercent(?:age)?\b|\binterest rate\b/i, wants: ['percentage'] },
  { re: new RegExp(`\\bhow many\\b(?! ${timeUnit}\\b)`, 'i'), wants: ['number'] },
  { re: /\b(?:what|which) (?:is the )?(?:most|least|maximum|minimum|limit|cap|threshold|level|number)\b|\bthe (?:most|least|maximum|minimum)\b|\bis there (?:a|any) (?:limit|cap|maximum|minimum|threshold)\b|\bhow (?:big|large|high|low|far|old)\b|\b(?:at most|at least|up to|no more than)\b/i, wants: quantity },
  { re: /\b(?:which|what|under which|under what) (?:sections?|subsections?|provisions?|articles?|clauses?|paragraphs?|regulations?|rules?|statutes?|laws?|authority)\b|\bcit(?:e|ation)\b|§/i, wants: ['section', 'id', 'number'] },
  { re: /\b(?:which|what) (?:\w+ )?(?:ids?|codes?|(?:zip|postal) codes?|(?:reference |account |order )?numbers?)\b/i, wants: ['id', 'number'] },
  { re: /\b(?:which|what|in which|in what) (?:\w+ )?(?:reasons?|status(?:es)?|conditions?|circumstances|options?|criteria|requirements?|terms?)\b|\bwhat happens\b/i, wants: ['condition'] },
];

export function questionForm(asked: string): QuestionForm {
  // "Can the licensor take back the licence?" is matched as "revoke" is.
  const question = withPhrasalVerbs(asked);
  let wants = new Set<FactKind>();
  let phrase: string | null = null;
  for (const form of forms) {
    const m = form.re.exec(question);
    if (!m) continue;
    for (const k of form.wants) wants.add(k);
    phrase ??= m[0].trim();
  }
  // A question decided by a statement ("Can it still be paid?", "Is the decision final?", "What
  // happens if…") asks for the condition that decides it, and for a figure only where it names
  // one itself ("…filed 14 months after…" is weighed against the limit): never for a figure
  // that merely sits in the neighbouring clause.
  const statement = statementRe.exec(question);
  const yesNo = statement === null ? yesNoRe.exec(question) : null;
  if (statement || yesNo) {
    const stated = new Set(extractFacts(question).map((f) => f.kind).filter((k) => quantity.includes(k) || k === 'date'));
    // "When will the agent hand me over?" is decided by the rule that says when, or by a time: both answer it.
    const when = statement !== null && /^\W*when (?:will|would)\b/i.test(statement[0]);
    if (when) for (const k of ['date', 'duration'] as FactKind[]) stated.add(k);
    if (statement || wants.size === 0) wants = new Set<FactKind>(['condition', ...stated, ...(stated.has('duration') ? (['date'] as FactKind[]) : [])]);
    else wants.add('condition');
    const said = ((statement ?? yesNo) as RegExpExecArray)[0].replace(/^[\s.!?\W]+/, '').trim();
    const words = said.split(/\s+/);
    phrase = words.length > 3 ? `${words[0]} … ${words.at(-1)}` : `${said}…`;
  }
  // The form's nouns ("which reasons", "what deadline") stay terms: they name what is asked too.
  const modifier = new Set<string>();
  for (const m of matchesOf(ofPhraseRe, question)) for (const t of termsOf(m[1] ?? '')) modifier.add(t);
  const main = new Set<string>();
  const all: string[] = [];
  for (const m of matchesOf(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu, question)) {
    for (const part of m[0].split('-')) {
      const t = processTerm(part);
      if (t === null) continue;
      all.push(t);
    }
  }
  // A word written both in the main clause and in a modifier keeps its full weight.
  for (const t of termsOf(question.replace(ofPhraseRe, ' '))) main.add(t);
  const terms = [...new Set(all)];
  return { wants: [...wants], phrase, terms, weights: terms.map((t) => (modifier.has(t) && !main.has(t) ? MODIFIER_WEIGHT : 1)), decision: Boolean(statement || yesNo) };
}

/** A fact is asked when its score is within this share of the best one; strict mode reaches further. */
const NEAR_BEST = 0.4;
const NEAR_BEST_STRICT = 0.25;
/** Characters either side of a fact that count as "right around it". */
const NEAR = 60;

interface FactDoc {
  fact: number;
  /** The sentence's start in the source. */
  at: number;
  fields: string[][];
  /** A condition clause's place: scored, but left out of the statistics (see bm25). */
  clause: boolean;
}

/**
 * near, sentence, heading, start event: the words right around a fact count most; the words
 * that only say when a period starts count least. "…shall conclude a reconsideration within the
 * 60-day period beginning on the date a request for reconsideration is filed" is the reviewer's
 * deadline, not the deadline to request one, though "request" is written right after it.
 */
const BOOST = [3, 1, 1.5, 0.75];
const NEAR_FIELD = 0;
const START = 3;
/** A question that names a start itself ("How long after a payment…") asks about the start event too: it counts as near. */
const BOOST_START_ASKED = [3, 1, 1.5, 3];
const startAskedRe = /\b(?:after|following|since|beginning|starting|from)\b/i;

/**
 * What opens the clause after a period that says when it starts ("…beginning on the date",
 * "…after receipt of", "…of the denial notice"). Grammar, not topic: it holds in statutes,
 * contracts and handbooks alike.
 */
const startClauseRe = /^[\s,]*(?:(?:period|term)\s+)?(?:(?:beginning|starting|commencing|counting|running)\s+(?:on|from|with|at)|(?:immediately\s+)?(?:after|following|from|of|since)\b)/i;
/** Where the start clause ends: a clause break, or a purpose ("…, to request", "in order to"). */
const startClauseEndRe = /[;:,(]|\s(?:to|in order to|or within|and within|unless|except|provided)\s/gi;

/**
 * Splits a place's sentence around a duration into what it is for and when it starts. Only a
 * length of time has a start event; every other fact keeps its sentence whole.
 */
function startClause(sentence: string, factEnd: number, kind: FactKind): { start: number; end: number } | null {
  if (kind !== 'duration') return null;
  const rest = sentence.slice(factEnd);
  const open = startClauseRe.exec(rest);
  if (!open) return null;
  startClauseEndRe.lastIndex = open[0].length;
  const close = startClauseEndRe.exec(rest);
  return { start: factEnd, end: factEnd + (close ? close.index : rest.length) };
}
const K1 = 1.2;
const B = 0.75;

/** Each place of each fact as tokens, field by field; texts shared by many facts (a sentence, a heading path) are tokenized once. */
// Sentences and headings recur across the boundaries of a run (one source, many consumers,
// reruns): their tokens are kept, up to a bound.
const tokenCache = new Map<string, string[]>();
const TOKEN_CACHE_SIZE = 20_000;

function placeDocs(survival: SurvivalReport, sourceText: (name: string) => string | undefined): FactDoc[] {
  const tokens = (text: string): string[] => {
    let list = tokenCache.get(text);
    if (!list) {
      if (tokenCache.size >= TOKEN_CACHE_SIZE) tokenCache.clear();
      list = [];
      // "the following" points at a list; it is not the verb "follow" a question asks about.
      for (const m of matchesOf(/[\p{L}\p{N}]+/gu, text.replace(followingRe, ' '))) {
        const t = processTerm(m[0]);
        if (t !== null) list.push(t);
      }
      tokenCache.set(text, list);
    }
    return list;
  };
  const docs: FactDoc[] = [];
  survival.facts.forEach((fact, n) => {
    const places = factPlaces(fact);
    if (places) {
      const length = fact.end - fact.start;
      for (const p of places) {
        const from = p.at - p.sentenceStart;
        const clause = startClause(p.sentence, from + length, fact.kind);
        const window = { start: Math.max(0, from - NEAR), end: from + length + NEAR };
        // The start event is its own, weaker field: right around the fact, its words say when the period starts, not what it is for.
        const near = clause ? p.sentence.slice(window.start, clause.start) + ' ' + p.sentence.slice(clause.end, Math.max(clause.end, window.end)) : p.sentence.slice(window.start, window.end);
        const starts = clause ? p.sentence.slice(clause.start, Math.min(clause.end, window.end)) : '';
        docs.push({ fact: n, at: p.sentenceStart, fields: [tokens(near), tokens(p.sentence), tokens(p.heading), clause ? tokens(starts) : []], clause: fact.kind === 'condition' && fact.unit !== undefined });
      }
      return;
    }
    // A report made elsewhere (structured-cloned): the text around the fact is all there is.
    const text = sourceText(fact.source) ?? '';
    docs.push({ fact: n, at: fact.start, fields: [tokens(text.slice(Math.max(0, fact.start - NEAR), fact.end + NEAR)), tokens(text.slice(Math.max(0, fact.start - 200), fact.end + 200)), [], []], clause: fact.kind === 'condition' && fact.unit !== undefined });
  });
  return docs;
}

const cache = new WeakMap<SurvivalReport, FactDoc[]>();
const followingRe = /\b(?:the|as)\s+follow(?:ing|s)\b/gi;

/** A query term matches a word that is it, or (5 letters or more) that it begins: "liable" finds "liability", "cancel" "cancellation". */
const matches = (term: string, word: string) => word === term || (term.length >= 5 && word.startsWith(term));
/** The same, or a word of the same meaning (same-meaning.ts): "swap" finds "change", "combined" finds "aggregated". */
const matchesByMeaning = (term: string, word: string) => matches(term, word) || (meaningOf(term) !== term && meaningOf(word) === meaningOf(term));

/**
 * BM25 of the question's terms over every place of every fact, fields weighted by BOOST, scored
 * only for the places of facts `eligible` admits (IDF is over all places). A plain BM25 sum:
 * minisearch (the retrieve step's engine) multiplies by the number of terms matched, so many
 * common words ("party", "agreement") outweighed one telling word, and building its index per
 * boundary cost more than the whole survival analysis.
 */
function bm25(docs: FactDoc[], terms: string[], weights: readonly number[], boost: readonly number[], eligible: (fact: number) => boolean, clauseStats = false): Map<number, { score: number; terms: string[]; at: number }> {
  // A question a statement decides is matched by meaning: its clause is often in other words.
  const match = clauseStats ? matchesByMeaning : matches;
  const fieldCount = boost.length;
  // Many places share a sentence or a heading (the same token array): count the terms in each array once.
  const counted = new Map<string[], number[]>();
  const countsOf = (field: string[]): number[] => {
    let counts = counted.get(field);
    if (!counts) {
      counts = terms.map((t) => {
        let n = 0;
        for (const w of field) if (match(t, w)) n++;
        return n;
      });
      counted.set(field, counts);
    }
    return counts;
  };
  // Term statistics come from the places of figures and named terms alone: a document's many
  // condition clauses would otherwise shift what a quantity question finds (they restate the
  // same sentences), and a clause is scored against the same yardstick.
  // A question a statement decides ranks clauses against clauses: in a policy with few figures,
  // statistics from the figures' places alone would make its telling words look common.
  const stats = clauseStats ? docs : docs.some((d) => !d.clause) ? docs.filter((d) => !d.clause) : docs;
  const avg = boost.map((_, f) => stats.reduce((n, d) => n + (d.fields[f]?.length ?? 0), 0) / Math.max(1, stats.length));
  // The start event is a piece of the words around the fact, cut out of them: its length is judged against theirs.
  avg[START] = avg[NEAR_FIELD] as number;
  const df = terms.map(() => 0);
  for (const d of stats) {
    const fieldCounts = d.fields.map(countsOf);
    terms.forEach((_, i) => {
      if (fieldCounts.some((c) => (c[i] as number) > 0)) df[i]!++;
    });
  }
  const idf = df.map((n) => Math.log(1 + (stats.length - n + 0.5) / (n + 0.5)));
  const best = new Map<number, { score: number; terms: string[]; at: number }>();
  for (const d of docs) {
    if (!eligible(d.fact)) continue;
    let score = 0;
    const found: string[] = [];
    const fieldCounts = d.fields.map(countsOf);
    terms.forEach((t, i) => {
      let termScore = 0;
      for (let f = 0; f < fieldCount; f++) {
        const tf = (fieldCounts[f] as number[])[i] as number;
        const length = (d.fields[f] as string[]).length;
        if (tf) termScore += (boost[f] as number) * (idf[i] as number) * ((tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * length) / Math.max(1, avg[f] as number))));
      }
      if (termScore > 0) {
        score += termScore * (weights[i] ?? 1);
        found.push(t);
      }
    });
    if (score === 0) continue;
    const seen = best.get(d.fact);
    if (!seen || score > seen.score) best.set(d.fact, { score, terms: found, at: d.at });
  }
  return best;
}

/** The sentence of a question that asks (its last one with a question mark), without the circumstances stated before it. */
function interrogativeSentence(question: string): string {
  const sentences = question.split(/(?<=[.!?])\s+/);
  return [...sentences].reverse().find((x) => x.includes('?')) ?? question;
}

function interrogativeOf(question: string): string {
  const asking = interrogativeSentence(question);
  // "What happens if I ask the agent to cancel…?": the "if" clause is the circumstance, "what happens" the question.
  return asking.replace(/\b(what (?:happens|will happen|would happen))\s+(?:if|when|once)\b.*$/i, '$1');
}

/** A question asking for a named value (a status, a reason, an option), which a named term or quoted value answers. */
const namedValueRe = /\b(?:status(?:es)?|reasons?|options?|labels?|categor(?:y|ies))\b/i;

/** "Which reasons…", "what status…", "what happens to the order status…": the answer is a named value. */
const whichValueRe = /\b(?:(?:what|which)|what happens to (?:the|its|my|your|their|an?)|what becomes of (?:the|its|my|your|their|an?))\s+(?:\w+\s+)?(?:status(?:es)?|reasons?|options?|labels?|categor(?:y|ies))\b/i;

/** Whether most of a clause's content words (two at least) are the question's own. */
function isPremise(clause: string, questionWords: ReadonlySet<string>): boolean {
  const words = contentWords(clause);
  const shared = words.filter((w) => questionWords.has(w)).length;
  // "if You Share" is a premise of "…if I share the material…?" as much as a longer clause is.
  return shared >= Math.min(2, words.length) && shared >= words.length * PREMISE_SHARE;
}
const PREMISE_SHARE = 0.6;

const isClauseFact = (f: SurvivalFact) => f.kind === 'condition' && f.unit !== undefined;

const termsOf = (text: string) => [...matchesOf(/[\p{L}\p{N}]+/gu, text)].map((m) => processTerm(m[0])).filter((t): t is string => t !== null);

const round = (n: number) => Math.round(n * 100) / 100;

/**
 * Every source fact the question is about, best first, with why. Empty when no word of the
 * question is found near any fact (then only the kind of answer can say what is asked).
 *
 * @example
 * askedFacts('How soon must a redetermination be concluded?', survival, sources)
 * // → [{ fact: { text: '60-day period', … }, score: 9.1, matched: ['redetermination', 'conclud'], kindMatch: true, … }]
 */
export function askedFacts(question: string, survival: SurvivalReport, sources: readonly { name: string; text: string }[], opts: { strict?: boolean } = {}): AskedFact[] {
  const form = questionForm(question);
  if (form.terms.length === 0 || survival.facts.length === 0) return [];
  let docs = cache.get(survival);
  if (!docs) {
    docs = placeDocs(survival, (name) => sources.find((s) => s.name === name)?.text);
    cache.set(survival, docs);
  }
  const asked = new Set(form.terms);
  const yesNo = form.decision;
  const interrogative = new Set(termsOf(interrogativeOf(question)));
  const asksNamedValue = whichValueRe.test(question);
  const questionWords = new Set(contentWords(question));
  const facts = survival.facts;
  const bestOf = bm25(docs, form.terms, form.weights, startAskedRe.test(question) ? BOOST_START_ASKED : BOOST, (n) => form.wants.length === 0 || form.wants.includes((facts[n] as SurvivalFact).kind), form.decision);
  const scored = [...bestOf].flatMap(([n, hit]) => {
    const fact = survival.facts[n] as SurvivalFact;
    // A term the question already names ("…an expedited reconsideration?") is what it is about,
    // not its answer; a yes/no question ("Does it cover urgent claims?") asks about exactly that.
    const own = termsOf(fact.normalized);
    // A plain "if"/"where" clause that says what the question itself states ("If the Secretary has
    // made a local coverage determination" for "…follow a local coverage determination…?") is its
    // premise, not what decides it; an "only if" is a requirement, never a premise.
    if (yesNo && isClauseFact(fact) && /^(?:if|where|when)\b/i.test(fact.text) && isPremise(fact.text, questionWords)) return [];
    const named = (fact.kind === 'condition' || fact.kind === 'section') && own.length > 0 && own.every((t) => asked.has(t));
    if (named && !yesNo) return [];
    // A question a statement decides is answered by a clause (unit set), never by a named term or
    // quoted value it merely shares words with ("'cancelled'", "Creative Commons"): those are
    // what the question is about, and they survive in any summary that mentions the topic.
    // What a named term stands for is asked only when the interrogative itself names it ("Do the
    // procedures cover urgent claims?") or asks for a named value ("what happens to the order status"):
    // "My order has been processed." states the circumstance, not the answer.
    if (yesNo && fact.kind === 'condition' && fact.unit === undefined && !namedValueRe.test(question) && !(own.length > 0 && own.every((t) => interrogative.has(t)))) return [];
    // A question whose form names no kind of answer ("What certificate can be offered…?") asks
    // for a thing: a figure or a named value, not a clause. Clauses answer only the forms that
    // want a condition (a question a statement decides, "under what conditions…").
    if (isClauseFact(fact) && !form.wants.includes('condition')) return [];
    // "Which reasons…", "In which status…" ask for a named value: a clause around it is not the answer.
    if (asksNamedValue && fact.kind === 'condition' && fact.unit !== undefined) return [];
    const kindMatch = form.wants.length === 0 || form.wants.includes(fact.kind);
    // Only the kinds the question's form wants are its answer: "How soon…" is not answered by
    // the named condition in the same sentence. A question that wants a kind the source does
    // not have near its words ("How much does an appeal cost?" over deadlines) asks for nothing here.
    if (!kindMatch) return [];
    return [{ fact, score: hit.score * (named ? 2 : 1), matched: hit.terms, kindMatch, place: hit.at }];
  });
  const best = Math.max(0, ...scored.map((s) => s.score));
  if (best === 0) return [];
  const share = opts.strict ? NEAR_BEST_STRICT : NEAR_BEST;
  // A question a statement decides has two kinds of candidates: the clauses that may decide it,
  // and the figures and named terms it names itself. Each is ranked against its own best, so a
  // named term the question repeats does not push the deciding clause out of reach.
  const clauseBest = Math.max(0, ...scored.filter((s) => isClauseFact(s.fact)).map((s) => s.score));
  const otherBest = Math.max(0, ...scored.filter((s) => !isClauseFact(s.fact)).map((s) => s.score));
  const floorOf = (s: { fact: SurvivalFact }) => (form.decision ? (isClauseFact(s.fact) ? clauseBest : otherBest) : best) * share;
  return scored
    .filter((s) => s.score >= floorOf(s))
    .sort((a, b) => b.score - a.score || a.fact.start - b.fact.start)
    .map((s) => ({
      ...s,
      status: s.fact.status,
      score: round(s.score),
      why: `score ${round(s.score)}${s.score === best ? ' (best)' : ` (best ${round(best)})`}; matched ${s.matched.join(', ')}` +
        (form.wants.length === 0 ? '' : s.kindMatch && form.decision ? `; a ${s.fact.kind}, as "${form.phrase}" asks (a question a statement decides${s.fact.kind === 'condition' ? '' : ', naming a figure itself'})`
          : s.kindMatch ? `; a ${s.fact.kind}, as "${form.phrase}" asks` : `; a ${s.fact.kind}, though "${form.phrase}" asks for ${form.wants.join(' or ')}`),
    }));
}
