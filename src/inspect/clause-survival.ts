import type { Fact } from './facts.ts';
import { matchesOf } from './matches.ts';
import { meaningOf, shownWord, withPhrasalVerbs } from './same-meaning.ts';
import { stem } from './stem.ts';

/**
 * Whether a condition clause survived a handoff, by meaning and with its polarity: "unless the
 * member was legally incapacitated" survives as "…except if the member was incapacitated"; "does
 * not extend any deadline" survives as "grievances do not extend deadlines" but is changed by
 * "grievances extend the deadline"; "never paid" is changed by "always paid". A clause survives
 * when at least half its content words (or words of the same meaning) are in one sentence of
 * the intermediate that says it the same way round.
 */
export interface ClauseJudgement {
  status: 'survived' | 'changed' | 'dropped';
  /** The clause's content words found in the intermediate, as it writes them (stemmed). */
  matched: string[];
  /** For a changed clause, the intermediate's sentence that says otherwise. */
  restatedAs?: string;
}


/** Words that carry a clause's form, not its content: its trigger and the grammar around it. */
const formWords = new Set(('unless except excepting other than excluding exception only after if when where upon provided that however subject condition long ' +
  'not no never does do did is are was were be been being will shall must may can could would should cannot without neither nor none ' +
  'the a an of to in on at by for with from and or any each every this that these those it its their his her such as about under ' +
  'once twice per time times all also there which who whom whose than then so more less fewer later earlier longer within after before ' +
  // Who is addressed and the auxiliary "have": "If You Share…" says the same as "if I share…".
  'you your yours our ours mine him she they them has have had having even though').split(' '));

/** A negation in the intermediate's sentence. */
const negationRe = /\b(?:not|no|never|none|nor|neither|cannot|without|n't)\b|n't\b/i;
const negationsRe = /\b(?:not|no|never|none|nor|neither|cannot|without)\b|n't\b/gi;
/** The opposite of a negation, said outright ("always paid"). */
const affirmRe = /\b(?:always|every time|in all cases|automatically)\b/i;
/** A sentence that limits what it says: an exception or a prerequisite. */
const limitingRe = /\b(?:unless|except|excepting|excluding|other than|only|exactly|if|provided|subject to|but|when|whenever|where|as long as|without|until|once|first|after|before|in case)\b/i;
/** An exception or prerequisite whose trigger restricts when the rule holds ("unless", "only if"); "by paying…", "even when" do not. */
const conditionalRe = /^(?:unless|except|other than|excluding|with the exception|only|if|provided|subject to|on condition|as long|so long|conditional|(?:can|may|must|will|shall|could) only)\b/i;
const onlyRe = /\bonly\b/i;
const concessionRe = /\beven (?:if|when|though|where)\b/i;
const exceptionRe = /\b(?:unless|except|excepting|other than)\b/i;
/** Where one clause of a sentence ends and the next begins. */
const segmentRe = /[,;:]|\s(?:but|and|or|which|while|whereas|so)\s/;

/** The part of a sentence that says the matched words: polarity is read there, not in a neighbouring clause. */
function segmentOf(sentence: string, matched: readonly string[]): string {
  let best = sentence;
  let most = -1;
  for (const part of sentence.split(segmentRe)) {
    const words = new Set(contentWords(part));
    const n = matched.filter((w) => words.has(w)).length;
    if (n > most) {
      most = n;
      best = part;
    }
  }
  return best;
}

/** A passage's content words, stemmed and read by meaning: what a clause says, without its form. */
export function contentWords(text: string): string[] {
  const out: string[] = [];
  for (const m of matchesOf(/[a-z][a-z'’-]*/gi, withPhrasalVerbs(text))) {
    // A quoted value's closing quote is no part of its word: 'pending' is "pending".
    const w = m[0].toLowerCase().replace(/['’]+$/, '').replace(/['’]s$/, '');
    if (w.length < 3 || formWords.has(w)) continue;
    out.push(meaningOf(stem(w)));
  }
  return [...new Set(out)];
}

/** A passage's content words stemmed but not read by meaning. */
function literalWords(text: string): string[] {
  const out: string[] = [];
  for (const m of matchesOf(/[a-z][a-z'’-]*/gi, withPhrasalVerbs(text))) {
    const w = m[0].toLowerCase().replace(/['’]+$/, '').replace(/['’]s$/, '');
    if (w.length < 3 || formWords.has(w)) continue;
    out.push(stem(w));
  }
  return out;
}

interface IndexedSentence {
  text: string;
  words: Set<string>;
  /** The same words as written (stemmed, not read by meaning): "continue" is not "remain" here. */
  literal: Set<string>;
}

/** The intermediate's sentences with their content words, worked out once per intermediate. */
export interface ClauseIndex {
  sentences: IndexedSentence[];
  /** For each content word, the sentences that hold it. */
  byWord: Map<string, number[]>;
}

/** A sentence of the intermediate: up to . ! ? ; or a line break (and never across two leaves, joined by NUL). */
const sentenceRe = /[^.!?;\n]+/g;

export function indexClauses(text: string): ClauseIndex {
  const sentences: IndexedSentence[] = [];
  const byWord = new Map<string, number[]>();
  for (const m of text.split('\u0000').flatMap((leaf) => [...matchesOf(sentenceRe, leaf)])) {
    const words = new Set(contentWords(m[0]));
    if (words.size === 0) continue;
    const n = sentences.push({ text: m[0].trim(), words, literal: new Set(literalWords(m[0])) }) - 1;
    for (const w of words) {
      const list = byWord.get(w);
      if (list) list.push(n);
      else byWord.set(w, [n]);
    }
  }
  return { sentences, byWord };
}

const MIN_SHARE = 0.5;
/** A clause's own content words, per prepared fact (a source's facts are prepared once and judged at every boundary). */
const ownWords = new WeakMap<Fact, string[]>();

/**
 * The words a clause must keep to survive: its content words, or (a clause of form alone, such
 * as "binding") those of its own clause around it too. Depends on the source alone: worked out once.
 */
export function clauseWords(fact: Fact, local: string): string[] {
  let own = ownWords.get(fact);
  if (!own) ownWords.set(fact, (own = contentWords(fact.text)));
  return own.length >= 2 ? own : [...new Set([...own, ...contentWords(local)])];
}

/** A clause's judgement against the intermediate's sentences; `words` from clauseWords, `sentence` its own clause in the source. */
export function judgeClause(fact: Fact, words: readonly string[], index: ClauseIndex, sentence: string, excepted = false): ClauseJudgement {
  if (words.length === 0) return { status: 'dropped', matched: [] };
  const hits = new Map<number, string[]>();
  for (const w of words) {
    for (const n of index.byWord.get(w) ?? []) {
      const list = hits.get(n);
      if (list) list.push(w);
      else hits.set(n, [w]);
    }
  }
  let best: { n: number; matched: string[] } | null = null;
  for (const [n, matched] of hits) if (!best || matched.length > best.matched.length) best = { n, matched };
  const shown = (list: string[]) => list.map(shownWord);
  const need = Math.max(1, Math.ceil(words.length * MIN_SHARE), words.length >= 4 ? 2 : 1);
  if (!best || best.matched.length < need) return { status: 'dropped', matched: shown(best?.matched ?? []) };
  // A clause of one word of its own ("after the deductible", "of the request") is judged
  // with its sentence's words, but those alone do not keep it: its own word must be said too.
  let own = ownWords.get(fact);
  if (!own) ownWords.set(fact, (own = contentWords(fact.text)));
  if (own.length === 1 && words.length > 1 && !best.matched.includes(own[0] as string)) return { status: 'dropped', matched: shown(best.matched) };
  // A clause of two words kept on one, and that one only by a word of the same meaning ("to remain
  // eligible" by "coverage can continue"), is not said: the sentence is about something else.
  if (words.length === 2 && best.matched.length === 1 && (best.matched[0] as string).startsWith('~') && !literalWords(fact.text).some((w) => (index.sentences[best.n] as IndexedSentence).literal.has(w))) return { status: 'dropped', matched: shown(best.matched) };
  const said = (index.sentences[best.n] as IndexedSentence).text;
  const matched = shown(best.matched);
  // Only a sentence that says most of the clause can say it the other way round; a partial match that does not agree is no match.
  const strong = best.matched.length >= Math.max(2, Math.ceil((words.length * 2) / 3)) || best.matched.length === words.length;
  const changed = (): ClauseJudgement => (strong ? { status: 'changed', matched, restatedAs: said } : { status: 'dropped', matched });
  const negative = fact.unit === 'negation' || (fact.unit === 'scope' && /^not\b/i.test(fact.text));
  const limiting = fact.unit === 'exception' || (fact.unit === 'prerequisite' && conditionalRe.test(fact.text));
  const segment = segmentOf(said, best.matched);
  // Polarity: a prohibition kept without its "not" (or said "always") is the opposite rule; a rule
  // said with a "not" in the clause that says it ("…does not end this licence" beside "may stop at
  // any time" keeps the permission) is turned round.
  // "No initial determination shall be appealed unless…" is "…can be appealed only after…": a
  // prohibition with an exception after it is a permission with a prerequisite, said either way.
  const restated = excepted && onlyRe.test(said);
  if (negative && !restated && (!negationRe.test(said) || affirmRe.test(segment))) return changed();
  // "even when the user already gave an id" is the rule holding there; "unless the user gave an id"
  // is the rule not holding there: a concession said as an exception (or the reverse) is turned round.
  if (concessionRe.test(fact.text) ? exceptionRe.test(segment) : fact.unit === 'exception' && concessionRe.test(segment)) return changed();
  if (!negative && !limiting && negationRe.test(segment) && !negationRe.test(sentence)) return changed();
  // An exception or prerequisite kept as a plain statement widens or narrows the rule: changed.
  // "Orders that are not pending cannot be cancelled" says "only if pending" with two negations.
  if (limiting && !limitingRe.test(said) && (said.match(negationsRe) ?? []).length < 2) return changed();
  return { status: 'survived', matched };
}
