import type { Fact } from './facts.ts';
import { contentWords } from './clause-survival.ts';
import { matchesOf } from './matches.ts';

/**
 * Conditions as facts: the clauses that change what a number or a rule means. Found by the
 * grammar of rules, which contracts, statutes and handbooks share, not by any one document's
 * phrases: an exception opens with "unless", "except" or "other than"; a prerequisite with
 * "only if", "only after", "provided that", "subject to"; a scope with "where …" after a comma or
 * "not about …"; a definition is "A grievance is a complaint …"; a prohibition is "no", "never",
 * "does not", "may not"; finality and permission are "binding", "final", "may … once", "at any
 * time". Each is a fact of kind `condition` whose `unit` says which of these it is, and whose
 * value is the clause in its own words.
 */
export const CLAUSE_TYPES = ['exception', 'prerequisite', 'scope', 'definition', 'negation', 'finality', 'limit', 'obligation', 'permission'] as const;
export type ClauseType = (typeof CLAUSE_TYPES)[number];

const triggers: { type: ClauseType; re: string }[] = [
  // A limit first: "only once" is a limit, not a prerequisite.
  // "Once an individual is provided…" is a time, not a limit: a bare "once" counts only as a frequency ("once a year").
  { type: 'limit', re: String.raw`(?:only |at most |no more than |not more than |up to )(?:once|twice)(?: (?:a|per|in any|in each|every) \w+)?|(?:once|twice) (?:a|per|in any|in each|every) \w+|(?:only |at most )one (?:\w+ )?(?:per|a|in any|in each) \w+|to the (?:extent|degree)|as far as` },
  { type: 'exception', re: String.raw`unless|except(?:\s+(?:for|as|where|when|that|if|in))?|other than|excluding|with the exception of|(?:or )?(?:within )?such (?:additional|further|longer|other) (?:time|period)` },
  // A modal with "only" ("can only be cancelled if…") restricts the rule; "even when" says it holds
  // where one would think it does not; "by paying…" is the means the rule requires.
  { type: 'prerequisite', re: String.raw`only (?:after|if|when|where|upon|for|to)|if and only if|provided(?:,)? (?:that|however)|subject to|on condition that|(?:as|so) long as|conditional (?:on|upon)|(?:can|may|must|will|shall|could) only|even (?:if|when|though)|by (?:[a-z]+ing)|in order to|to (?:remain|stay|become|be) eligible|after (?:the|a|an|any|all) (?=[a-z])|if` },
  // "A member who sees a provider outside the network": a relative clause narrows whom the rule is for.
  { type: 'scope', re: String.raw`not (?:about|for|including|covering)|where|(?<=,\s)in which case|(?<=[a-z] )(?:who|whose)` },
  { type: 'negation', re: String.raw`never|no(?! (?:later|earlier|more|less|fewer|sooner|longer) than)(?=\s+[a-z])|(?:does|do|did|is|are|was|were|will|shall|must|may|can|could|would|should) not|cannot|can't|won't|doesn't|don't|isn't|aren't|neither|nor|without` },
  // Obligations and permissions after negations, so "may not" and "must not" stay prohibitions.
  { type: 'obligation', re: String.raw`must|(?:has|have) to|(?:is|are) (?:required|obliged|obligated) to|needs? to` },
  { type: 'permission', re: String.raw`may|(?:is|are) (?:allowed|permitted|entitled) to|shall (?:allow|permit)|(?:has|have) the right to` },
  { type: 'finality', re: String.raw`(?:final and )?binding|is final|are final|(?:final and )?conclusive|irrevocabl[ey]|at any time|survives?(?: the)? (?:termination|expiration|expiry)|automatically|at (?:its|their|his|her|the member's|the customer's) (?:sole )?discretion` },
];

const triggerRe = new RegExp(triggers.map((t) => `\\b(${t.re})\\b`).join('|'), 'gi');

/** A definition: a short subject, then "is"/"means"/"refers to", at the start of a sentence or clause line. */
const definitionRe = /(?:^|[.!?]\s+|\n)[ \t]*(?:(?:\d+(?:\.\d+)*\.?|\([a-z0-9]{1,4}\))[ \t]+)?((?:An?|The|Each|Any)\s+(?:[a-z][\w-]*\s+){0,3}?[a-z][\w-]*\s+(?:is|are|means|refers to|includes)\s+(?:a|an|the|any|one|each)\s)/g;

/** Where a clause stops: a clause break or table cell, the start of another rule, or the sentence's end. */
// A line break ends a clause unless the next line goes on in lower case: plain text wrapped at a
// fixed width ("…within 30 days of Your discovery of the\n   violation") is one sentence.
const clauseEndRe = /[,;:.!?()|]|\n(?![ \t]*[a-z])|\s(?:and|but|or|which|while|whereas|then)\s/g;
const MAX_WORDS = 12;
const MIN_MODAL_WORDS = 4;
/** The words of a cross-reference (stemmed): a clause of these alone points elsewhere. */
const structuralRe = /^(?:sub)?(?:section|paragraph|clause|subclause|title|chapter|part|article|schedule|exhibit|annex|appendix|item|provid|describ|set|forth|above|below|follow|herein|hereof|hereunder|thereof|act)$/;
const WINDOW = 240;

/** What a clause says of its own: its content words without those of cross-references ("only if the individual described in subparagraph" says one thing). */
export const ownContentWords = (clause: string): string[] => contentWords(clause).filter((w) => !structuralRe.test(w));

/** The index of the first fact starting at or after `at` (facts sorted by start). */
function firstFrom(facts: readonly Fact[], at: number): number {
  let lo = 0;
  let hi = facts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((facts[mid] as Fact).start < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Figures and named terms are facts of their own: a clause stops before one it would swallow. */
function endBefore(facts: readonly Fact[], start: number, end: number): number {
  const next = facts[firstFrom(facts, start)];
  return next !== undefined && next.start < end ? next.start : end;
}

function cutWords(text: string, start: number, end: number): number {
  let words = 0;
  for (let i = start; i < end; i++) {
    if (text[i] === ' ' && text[i - 1] !== ' ' && ++words >= MAX_WORDS) return i;
  }
  return end;
}

/** Whether a length of time or a date ends right before `at` (a space or two between them): "12 months after the service". */
function endsJustBefore(facts: readonly Fact[], at: number): boolean {
  const before = facts[firstFrom(facts, at) - 1];
  return before !== undefined && (before.kind === 'duration' || before.kind === 'date') && at - before.end >= 0 && at - before.end <= 2;
}

/**
 * A title names a topic and states no rule: "(5) Binding nature of positive determination", "## Modify
 * payment". It is a Markdown heading, or a short line with no closing punctuation standing alone
 * before a blank line.
 */
function isTitleLine(text: string, at: number): boolean {
  const start = text.lastIndexOf('\n', at - 1) + 1;
  let end = text.indexOf('\n', at);
  if (end === -1) end = text.length;
  const line = text.slice(start, end).trim();
  if (/^#{1,6}\s/.test(line)) return true;
  if (/[.;:!?,]$/.test(line) || line.split(/\s+/).length > TITLE_WORDS) return false;
  return /^\r?\n[ \t]*(?:\r?\n|$)/.test(text.slice(end, end + 40)) && (start === 0 || text[start - 2] === '\n' || /\n[ \t]*$/.test(text.slice(Math.max(0, start - 40), start - 1)));
}
const TITLE_WORDS = 10;

/** Whether [start, end) overlaps a fact (facts sorted by start). */
function overlapsAny(facts: readonly Fact[], start: number, end: number): boolean {
  const i = firstFrom(facts, start);
  const before = facts[i - 1];
  if (before && before.end > start) return true;
  const after = facts[i];
  return after !== undefined && after.start < end;
}

/**
 * Every condition clause of `text`, in order, none overlapping another or any of `facts` (the
 * figures and named terms already found, sorted by start).
 *
 * @example
 * extractClauses('Claims are never paid after 12 months, unless the member was legally incapacitated.', facts)
 * // → negation "never paid after", exception "unless the member was legally incapacitated"
 */
export function extractClauses(text: string, allFacts: readonly Fact[]): Fact[] {
  // A named term or quoted value is part of what a clause says ("unless there is good cause which
  // precluded…", "only … if its status is 'pending'"): clauses run through them and stop only at
  // figures, dates, ids and references.
  const facts = allFacts.filter((f) => f.kind !== 'condition');
  const named = allFacts.filter((f) => f.kind === 'condition').sort((a, b) => a.start - b.start);
  /** The named terms inside [start, end), found by binary search (a contract uses its defined terms thousands of times). */
  const namedWithin = (start: number, end: number): Fact[] => {
    const out: Fact[] = [];
    for (let i = firstFrom(named, start); i < named.length && (named[i] as Fact).start < end; i++) if ((named[i] as Fact).end <= end) out.push(named[i] as Fact);
    return out;
  };
  const insideNamed = (at: number) => {
    const f = named[firstFrom(named, at + 1) - 1];
    return f !== undefined && f.start <= at && at < f.end;
  };
  const withoutNamed = (clause: string, at: number, inside: readonly Fact[]) => {
    let out = clause;
    for (const f of inside) out = out.slice(0, f.start - at) + ' '.repeat(f.end - f.start) + out.slice(f.end - at);
    return out;
  };
  const found: Fact[] = [];
  const add = (type: ClauseType, start: number, end: number) => {
    end = endBefore(facts, start, end);
    while (end > start && /\s/.test(text[end - 1] as string)) end--;
    if (end - start < 2 || overlapsAny(facts, start, end)) return;
    const last = found.at(-1);
    if (last && last.end > start) return;
    const clause = text.slice(start, end);
    // "must be filed within", "may request reconsideration of an": the verb of a rule whose
    // content is a figure or the sentence around it. A requirement or permission in words
    // ("must have enough balance to cover the total amount") says at least three things.
    // A named term inside counts as one word: "may request reconsideration of an adverse benefit determination" says two things.
    if (type === 'obligation' || type === 'permission') {
      const inside = namedWithin(start, end);
      if (contentWords(withoutNamed(clause, start, inside)).length + inside.length < MIN_MODAL_WORDS) return;
    }
    // "subject to subparagraph (B)", "Except as provided in paragraph": a pointer to a rule written elsewhere, not a condition here.
    const words = contentWords(clause);
    if (words.length > 0 && words.every((w) => structuralRe.test(w))) return;
    found.push({ kind: 'condition', text: clause, start, end, unit: type, normalized: `${type}: ${clause.toLowerCase().replace(/\s+/g, ' ')}` });
  };
  const spans: { type: ClauseType; start: number; triggerEnd: number }[] = [];
  for (const m of matchesOf(definitionRe, text)) {
    const start = m.index + m[0].length - (m[1] as string).length;
    spans.push({ type: 'definition', start, triggerEnd: m.index + m[0].length });
  }
  for (const m of matchesOf(triggerRe, text)) {
    let i = 1;
    while (i < m.length && m[i] === undefined) i++;
    spans.push({ type: (triggers[i - 1] as { type: ClauseType }).type, start: m.index, triggerEnd: m.index + m[0].length });
  }
  spans.sort((a, b) => a.start - b.start);
  for (const s of spans) {
    // "'no longer needed'" is a value's name, not a prohibition.
    if (insideNamed(s.start)) continue;
    // A title names a topic ("(5) Binding nature of positive determination"): the rule is in the text under it.
    if (isTitleLine(text, s.start)) continue;
    // "12 months after the service", "30 days after receipt": the start of a period, part of its figure.
    if (s.type === 'prerequisite' && /^after\b/i.test(text.slice(s.start, s.triggerEnd)) && endsJustBefore(facts, s.start)) continue;
    // Only a window after the trigger is searched (a clause is at most MAX_WORDS words): on text
    // with no punctuation, searching to the end from every trigger would be quadratic.
    const window = text.slice(s.triggerEnd, s.triggerEnd + WINDOW);
    clauseEndRe.lastIndex = 0;
    const close = clauseEndRe.exec(window);
    let end = cutWords(text, s.start, s.triggerEnd + (close ? close.index : window.length));
    // "must list the action detail and obtain explicit user confirmation": a modal governs each
    // verb joined to its first by "and"/"or". Cut at the first, a short requirement says too little
    // to be one (MIN_MODAL_WORDS); it runs on to its next clause break.
    if ((s.type === 'obligation' || s.type === 'permission') && close && /^\s(?:and|or)\s$/.test(close[0]) && contentWords(text.slice(s.triggerEnd, end)).length < MIN_MODAL_WORDS) {
      const from = close.index + close[0].length;
      clauseEndRe.lastIndex = from;
      const further = clauseEndRe.exec(window);
      end = cutWords(text, s.start, s.triggerEnd + (further ? further.index : window.length));
    }
    // "must either go to the original payment method, or an existing gift card": "either" says the
    // clause is the choice between both alternatives, so it runs on through its "or" to the next break.
    const or = close && /\beither\b/i.test(text.slice(s.triggerEnd, end)) ? /^,?\s+or\s/.exec(text.slice(end, end + 8))?.[0].length : undefined;
    if (or !== undefined) {
      const from = end - s.triggerEnd + or;
      clauseEndRe.lastIndex = from;
      const further = clauseEndRe.exec(window);
      end = cutWords(text, end + or, s.triggerEnd + (further ? further.index : window.length));
    }
    // A modal is the rule's verb: the condition written after it ("may request a review only once
    // per claim") is a clause of its own, not part of the permission.
    if (s.type === 'obligation' || s.type === 'permission') {
      const next = spans.find((o) => o.start >= s.triggerEnd && o.start < end);
      if (next) end = next.start;
    }
    // A bare "no" governs a noun phrase ("no deductible", "no coverage"), not the verb after it.
    if (/^no\b/i.test(text.slice(s.start, s.triggerEnd))) {
      const verb = /\s(?:is|are|was|were|be|will|shall|may|must|can|applies|apply)\b/i.exec(text.slice(s.triggerEnd, end));
      if (verb) end = s.triggerEnd + verb.index;
    }
    add(s.type, s.start, end);
  }
  clauseEndRe.lastIndex = 0;
  return found;
}
