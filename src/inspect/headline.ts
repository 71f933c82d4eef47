import type { AskedFact } from './relevance.ts';
import { processTerm, questionForm } from './relevance.ts';
import type { SurvivalFact } from './survival.ts';
import { matchesOf } from './matches.ts';

/**
 * The boundary's headline in words: the asked fact that was lost first, and what the question
 * asks, in the question's own words: "180-day period: dropped — the question asks how many days
 * to request a reconsideration".
 */
export interface LeadFact {
  fact: SurvivalFact;
  status: AskedFact['status'];
  /** The whole line, ready to show. */
  headline: string;
  /** What the question asks, as the headline words it ("how many days to request a reconsideration"). */
  asks: string;
}

const lostWords = (f: SurvivalFact) =>
  f.status === 'approximated' ? `only approximated, as “${f.restatedAs ?? ''}”` : f.status === 'changed' ? `changed, to “${f.restatedAs ?? ''}”` : 'dropped';

/** Words in the question that connect a form to what it is about ("to", "for") and may open the quoted part. */
const linkWords = new Set(['to', 'for', 'on', 'about']);
const MAX_ASKS = 90;

/**
 * What the question asks, in its words: its form ("how many days") and the stretch of it that
 * the fact's place matched ("request a reconsideration"). A question with no form (yes/no) is
 * quoted whole, cut at MAX_ASKS characters.
 */
export function questionAsks(question: string, matched: readonly string[]): string {
  const form = questionForm(question);
  const words = [...matchesOf(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu, question)];
  const phrase = form.phrase?.toLowerCase() ?? null;
  const phraseEnd = phrase ? question.toLowerCase().indexOf(phrase) + phrase.length : 0;
  const hit = (w: RegExpExecArray) => {
    const t = processTerm(w[0]);
    return t !== null && matched.includes(t) && w.index >= phraseEnd;
  };
  const first = words.findIndex(hit);
  let last = -1;
  words.forEach((w, i) => {
    if (hit(w)) last = i;
  });
  if (!phrase || first === -1) {
    const whole = question.trim().replace(/\s+/g, ' ');
    return `“${whole.length > MAX_ASKS ? `${whole.slice(0, MAX_ASKS - 1)}…` : whole}”`;
  }
  const before = words[first - 1];
  const from = before && linkWords.has(before[0].toLowerCase()) && before.index >= phraseEnd ? before.index : (words[first] as RegExpExecArray).index;
  const lastWord = words[last] as RegExpExecArray;
  const tail = question.slice(from, lastWord.index + lastWord[0].length).replace(/\s+/g, ' ');
  return `${phrase} ${tail.length > MAX_ASKS ? `${tail.slice(0, MAX_ASKS - 1)}…` : tail}`;
}

/** The headline for the first lost asked fact, in rank order. */
export function leadFact(question: string, lost: AskedFact): LeadFact {
  const asks = questionAsks(question, lost.matched);
  return { fact: lost.fact, status: lost.status, asks, headline: `${lost.fact.text}: ${lostWords(lost.fact)} — the question asks ${asks}` };
}
