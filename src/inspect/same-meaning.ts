import { stem } from './stem.ts';

/**
 * Words a rule and its restatement use interchangeably: general legal and policy vocabulary
 * (contracts, statutes, handbooks, support policies), grouped by meaning; each group's words
 * stand for each other. Not any one document's phrases: each group is a word family a careful
 * paraphrase reaches for ("binding" → "final", "aggregated" → "combined", "swap" → "change").
 * Read by clause survival (does a clause's content survive in other words) and by the ranking of
 * a question a statement decides (does a clause say what the question asks, in other words).
 */
export const SAME_MEANING: readonly (readonly string[])[] = [
  ['binding', 'final', 'conclusive', 'definitive'],
  ['harm', 'risk', 'jeopardy', 'jeopardize', 'endanger', 'danger', 'damage'],
  ['serious', 'seriously', 'severe', 'severely', 'grave', 'gravely', 'significant'],
  ['incapacitated', 'incapacity', 'incapacitation', 'incompetent'],
  ['extend', 'extension', 'prolong', 'lengthen', 'pause', 'toll', 'suspend'],
  ['pay', 'paid', 'payment', 'reimburse', 'reimbursement', 'cover', 'covered', 'coverage', 'charge', 'liability', 'liable', 'fee', 'cost', 'financial'],
  ['cancel', 'cancellation', 'terminate', 'termination', 'end', 'expire', 'expiry', 'lapse'],
  ['complaint', 'grievance'],
  ['deadline', 'limit', 'period', 'timeframe'],
  ['prohibit', 'forbid', 'bar', 'ban'],
  ['require', 'requirement', 'need', 'must', 'mandatory'],
  ['deductible', 'excess'],
  ['decision', 'determination', 'ruling'],
  ['change', 'swap', 'switch', 'exchange', 'modify', 'modification', 'replace', 'alter', 'amend'],
  ['deny', 'denial', 'refuse', 'refusal', 'reject', 'rejection', 'decline'],
  ['combine', 'aggregate', 'merge', 'consolidate', 'join', 'together', 'jointly'],
  ['waive', 'waiver', 'forgo', 'relinquish', 'surrender'],
  ['transfer', 'escalate', 'refer', 'forward'],
  ['authenticate', 'authentication', 'verify', 'verification', 'identify'],
  ['evidence', 'proof', 'documentation'],
  ['child', 'children', 'minor', 'dependant', 'dependent', 'son', 'daughter'],
  ['revoke', 'revocation', 'withdraw', 'rescind'],
  ['request', 'ask'],
  ['relate', 'concern', 'regard', 'involve', 'pertain'],
  ['employment', 'job', 'employ', 'employer'],
  ['continue', 'continuation', 'remain', 'survive', 'persist', 'keep', 'stay', 'maintain'],
];

const groupOf = new Map<string, number>();
SAME_MEANING.forEach((group, i) => group.forEach((w) => groupOf.set(stem(w), i)));

/** A stemmed word's meaning: its group's mark ("~3") when it has one, else the word itself. */
export const meaningOf = (stemmed: string): string => (groupOf.has(stemmed) ? `~${groupOf.get(stemmed)}` : stemmed);

/** A meaning mark as a word a person reads: the group's first word. */
export const shownWord = (word: string): string => (word.startsWith('~') ? (SAME_MEANING[Number(word.slice(1))]?.[0] ?? word) : word);

/**
 * Verbs of two words that say what one word of a group says: "take back" a licence is revoke it,
 * "give up" a right is waive it, "hand over" to a person is transfer. Rewritten before words are
 * read, so the group above finds them.
 */
const PHRASAL: readonly [RegExp, string][] = [
  [/\b(?:take|takes|taking|took|taken)\s+(?:\w+\s+)?back\b/gi, 'revoke'],
  [/\b(?:give|gives|giving|gave|given)\s+(?:\w+\s+)?up\b/gi, 'waive'],
  [/\b(?:hand|hands|handing|handed|pass|passes|passed|passing)\s+(?:\w+\s+)?over\b/gi, 'transfer'],
  [/\b(?:call|calls|calling|called)\s+(?:\w+\s+)?off\b/gi, 'cancel'],
];

const particleRe = /\b(?:back|up|over|off)\b/i;

export function withPhrasalVerbs(text: string): string {
  // Most text has no particle at all: one scan for it before four.
  if (!particleRe.test(text)) return text;
  let out = text;
  for (const [re, word] of PHRASAL) out = out.replace(re, word);
  return out;
}
