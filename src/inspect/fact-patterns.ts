/**
 * The regular expressions fact extraction runs, compiled once at module load. Most are
 * global and run once over the text; the duration and percentage ones run only on the few
 * characters before a unit or marker that indexOf found. Overlaps are settled by extractor
 * order in `facts.ts`, so a pattern here may be generous where a higher-priority one
 * (money before number, duration before section lists) already claims the span.
 */

/** A written number: "1,500", "180", "2.5". Commas only in thousands groups, so "$100," stays 100. */
export const NUM = String.raw`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?`;

const smallWords = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve',
  'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const tensWords = ['twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const wordValue = new Map<string, number>([
  ...smallWords.map((w, i) => [w, i] as [string, number]),
  ...tensWords.map((w, i) => [w, 20 + i * 10] as [string, number]),
]);

// Longest first, so "fourteen" is tried before "four" and the trailing \b never has to backtrack far.
const byLength = (words: string[]) => [...words].sort((a, b) => b.length - a.length).join('|');
/** Spelled numbers up to ninety-nine: "three years", "forty-five days". Statutes and contracts write both. */
export const WORD = `(?:(?:${tensWords.join('|')})(?:[-\\s](?:${byLength(smallWords.slice(1, 10))}))?|${byLength(smallWords)})`;

/** "thirty (30)", "180", "forty-five": the amount in front of a unit. Contracts repeat words as digits. */
const QTY = `(?:${WORD}\\s*\\(\\s*(?:${NUM})\\s*\\)|${NUM}|${WORD})`;

/** Parses an amount as matched by QTY: digits win when both are written ("thirty (30)"). */
export function parseAmount(raw: string): number | undefined {
  const digits = /\d[\d,]*(?:\.\d+)?/.exec(raw)?.[0];
  if (digits) return Number(digits.replace(/,/g, ''));
  const parts = raw.toLowerCase().split(/[-\s]+/);
  let total = 0;
  for (const part of parts) {
    const v = wordValue.get(part);
    if (v === undefined) return undefined;
    total += v;
  }
  return total;
}

const SEP = String.raw`(?:\s*[-–]\s*|\s+)`;
/**
 * Durations are found from their unit backwards: the unit words are rare and found with
 * indexOf, while a quantity-first pattern would try the spelled-number alternation at every
 * word of the text. These run on the few dozen characters before each unit.
 * Groups: 1 amount, 2 range end ("5 to 7"), 3 qualifier. "and" is no range word:
 * "section 5 and 30 days" is not five days.
 */
export const durationLeftRe = new RegExp(
  `(?<![\\w.,$])(${QTY})(?:\\s*(?:to|or|through|[-–])\\s*(${QTY}))?${SEP}(?:(calendar|business|working|consecutive)${SEP})?$`,
  'id',
);
/** "the 60th day after": a point counted in days still answers "how many days". Groups: 1 amount, 2 qualifier. */
export const ordinalLeftRe = /(?<![\w.,])(\d{1,4})(?:st|nd|rd|th)\s+(?:(calendar|business|working)\s+)?$/i;
export const unitStems = ['minute', 'hour', 'day', 'week', 'month', 'year'];
const unitAlternation = '(?:calendar |business |working )?(?:minute|hour|day|week|month|year)s?\\b';
/** The unit itself, sticky at a stem found by indexOf: "days", "day period"; not "daytime", "yearly". */
export const durationUnitRe = /(minute|hour|day|week|month|year)s?\b(?:[\s-]+period\b)?/iy;

/** Groups: 1 currency marker, 2 amount, 3 scale. */
export const moneyPrefixRe = new RegExp(`(US\\$|\\$|USD\\s?|EUR\\s?|GBP\\s?|€|£)\\s?(${NUM})(?:\\s?(million|billion|thousand|mn|bn|[MBKmk])\\b)?`, 'g');
/** "1,500 dollars", "2 million euros". Groups: 1 amount, 2 scale, 3 currency word. */
export const moneySuffixRe = new RegExp(`(?<![\\w.,$])(${NUM})(?:\\s(million|billion|thousand))?\\s(dollars|USD|euros?|EUR|GBP|cents)\\b`, 'gi');

/** Percentages, found from the marker backwards like durations. */
export const percentMarkerRe = /%|percent\b|per cent\b|percentage points?\b/iy;
export const percentLeftRe = new RegExp(`(?<![\\w.,$])(${NUM}|${WORD})\\s?$`, 'i');

// Month names are matched case-sensitively: "may" the verb is not May the month.
const MONTH = '(Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)(?:\\.|\\b)';
/**
 * Dates led by a month name, in one pass: "January 1, 2006", "December 1", "July 2003".
 * Groups: 1 month, 2 day, 3 year after a day, 4 year without a day.
 */
export const monthDateRe = new RegExp(`\\b${MONTH}(?:\\s*(\\d{1,2})(?:st|nd|rd|th)?\\b(?:(?:,\\s*|\\s+)(\\d{4})\\b)?(?![.,]?\\d)|,?\\s+(\\d{4})\\b)`, 'g');
/** The digit-led date forms. */
export const dateRes: { re: RegExp; order: 'dmy' | 'iso' | 'slash' }[] = [
  { re: new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+${MONTH},?\\s+(\\d{4})\\b`, 'g'), order: 'dmy' },
  { re: /\b(\d{4})-(\d{2})-(\d{2})\b/g, order: 'iso' },
  { re: /\b(\d{1,2})\/(\d{1,2})\/(\d{4})\b/g, order: 'slash' },
];
/** A bare year is a date only after a word that makes it one ("in 2001", "after 2004", "fiscal year 2005"). */
export const yearRe = /(?<![\w.,$])(?:19|20)\d{2}(?![\w]|[.,]?\d)/g;
export const yearContextRe = /\b(?:in|after|before|since|until|through|by|during|of|year|FY|fiscal year|calendar year)\s+$/i;

export const monthIndex = (name: string): number =>
  ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'].indexOf(name.slice(0, 3).toLowerCase()) + 1;

/** One section reference: "1395w–22", "7.3", "405(g)", "1320c–3(a)(2)". */
export const REF = String.raw`\d+[A-Za-z]*(?:[.\-–—]\d+[A-Za-z]*)*(?:\((?:\d{1,3}|[A-Za-z]{1,5})\))*`;
/** A keyword and a list of refs: "§ 1395ff", "Sections 406(a), 1302, and 1395hh". Group 1, the list, ends the match. */
export const sectionRe = new RegExp(
  // One space after the keyword: "section  3" with two is a stripped enumerator, not a citation.
  `(?:§§?[ \\u00a0]?|\\b[Ss]ections?[ \\u00a0]|\\b[Ss]ec\\.[ \\u00a0]?|\\b(?:Article|Clause|Art\\.)[ \\u00a0])` +
    // Contracts caption each ref: "Section 2.1 [MEDICAL PRODUCTS], 2.2 [MEDICAL PRODUCTS]".
    `(${REF}(?:\\s*\\[[^\\]\\n]{1,80}\\])?(?:(?:\\s*,\\s*(?:and\\s+|or\\s+)?|\\s+(?:and|or|through)\\s+)${REF}(?:\\s*\\[[^\\]\\n]{1,80}\\])?)*)`,
  'g',
);
export const refRe = new RegExp(REF, 'g');
/** Two or more enumerators in a row, "(b)(1)(D)(i)": a citation even without a keyword. One "(1)" alone is a list marker. */
export const parenChainRe = /(?<![\w)])(?:\((?:\d{1,3}|[A-Za-z]{1,5})\)){2,}/g;
/**
 * A clause number, "3.10  Territory Expansion"; kept only where it opens a line
 * (or follows a run of whitespace, where page breaks were flattened): a section, not 3.1.
 */
export const clauseNumberRe = /(?<![\w.])\d{1,3}(?:\.\d{1,3})+(?=\.?[ \t])/g;

/**
 * Identifiers, in priority order. Each requires a digit so words never look like ids; some
 * carry a cheap literal-led gate, and the full pattern only runs when the gate matches.
 */
export const idRes: { re: RegExp; gate?: RegExp }[] = [
  { re: /\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b/g, gate: /-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-/ },
  { re: /(?<![\w#])#[A-Za-z0-9][\w-]*\d[\w-]*/g },
  { re: /\b[A-Z]{2,6}-\d{3,}(?:-[A-Z0-9]+)*\b/g },
  // Letters and digits mixed: any such token has a letter next to a digit, which gates it.
  { re: /\b(?=\d*[A-Z])(?=[A-Z]*\d)[A-Z0-9]{6,20}\b/g, gate: /[A-Z]\d|\d[A-Z]/ },
  { re: /\b[a-z]+(?:_[a-z]+)*_\d{3,}\b/g, gate: /_\d{3}/ },
  { re: /(?<![\w.,$#-])\d{7,}(?![\w]|[.,]\d)/g },
  // Group 1 is the id and always ends the match.
  { re: /\b(?:order|claim|account|ticket|case|invoice|reference|confirmation|tracking|policy|member|reservation|booking|transaction|user|customer)[\s_]*(?:id|number|no\.?|#)\s*:?\s*#?([A-Za-z0-9][A-Za-z0-9-]*\d[A-Za-z0-9-]*)/gi },
];

/** Named conditions worth tracking on their own: [canonical name, pattern]. Kept short on purpose. */
export const curatedConditions: [string, string][] = [
  ['adverse benefit determination', 'adverse benefit determinations?'],
  ['expedited', 'expedit(?:ed|es|e|ing|ion|ious)'],
  ['urgent', 'urgent(?:\\s+care)?|urgently|urgency'],
  ['emergency', 'emergenc(?:y|ies)(?:\\s+(?:care|services?|room))?'],
  ['good cause', 'good cause'],
  ['life-threatening', 'life[-\\s]threatening'],
  ['medically necessary', 'medically necessary|medical necessity'],
  ['reasonable and necessary', 'reasonable and necessary'],
  ['prior authorization', '(?:prior\\s+|pre-?)authori[sz]ation'],
  ['pre-existing condition', 'pre-?existing conditions?'],
  ['out-of-network', 'out[-\\s]of[-\\s]network'],
  ['in-network', 'in-network'],
  ['clean claim', 'clean claims?'],
  ['hardship', '(?:financial\\s+|undue\\s+)?hardships?'],
  ['terminal illness', 'terminal(?:ly)?\\s+ill(?:ness)?'],
  ['grace period', 'grace periods?'],
  ['force majeure', 'force majeure'],
  ['material breach', 'material(?:ly)?\\s+breach(?:es|ed)?'],
  ['gross negligence', 'gross negligence|grossly negligent'],
  ['willful misconduct', 'wil?ful misconduct'],
  ['non-refundable', 'non-?refundable'],
];
export const conditionRe = new RegExp(`\\b(?:${curatedConditions.map(([, p]) => `(${p})`).join('|')})\\b`, 'gi');

/**
 * Defined terms: `the term “local coverage determination”`, `(the "Agreement")`,
 * `"Effective Date" means`. Group 1 or 2 is the term.
 */
export const definedTermRe =
  /(?:\bthe terms?\s+|\(\s*(?:the|each|a|an|collectively,?\s+the)?\s*)[“"]([^”"\n]{2,60})[”"]|[“"]([A-Z][^”"\n]{1,60})[”"]\s+(?:means|shall mean|has the meaning|refers to)\b/g;

const attachedUnits = 'mcg|mg|kg|g|km|cm|mm|ml|gb|mb|kb|tb|lbs?|oz|kwh|mph';
const wordUnits = 'pounds|ounces|liters?|litres?|miles?|feet|inches|meters?|metres?|tokens?|words?|characters?|pages?|units?|items?|' +
  'visits?|times|people|persons|individuals|members|employees|beneficiaries|claims|requests|appeals|sessions|tablets|doses|calls|' +
  'attempts|retries|users|customers|orders|products|types|variants|pieces|copies|seats|passengers|bags|nights|rooms|points';
/** A number not claimed by any other kind. Group 1 amount, 2 attached unit, 3 spaced unit. */
export const numberRe = new RegExp(
  `(?<![\\w.,$#§/:=&\\-–])(${NUM})(?:\\s?(${attachedUnits})\\b|(?![\\w]|[.,:/\\-–]\\d|-[A-Z])(?:\\s+(${wordUnits})\\b)?)`,
  'gi',
);
/**
 * A limit on a count: "at most five passengers", "not fewer than 4", "up to three gift cards".
 * Group 1 the amount, written or spelled. The quantifier makes a spelled number a figure.
 */
export const countLimitRe = new RegExp(
  `\\b(?:at (?:most|least)|up to|no (?:more|fewer|less) than|not (?:more|fewer|less) than|(?:a )?(?:maximum|minimum|limit) of)\\s+(${NUM}|${WORD})(?![\\w%$]|[.,]\\d|\\s*(?:\\(|percent|per cent|dollars|${unitAlternation}))`,
  'gi',
);
/**
 * A spelled number confirmed by digits, "one (1) complete copy", "fifteen (15)": the digits are
 * a figure, not a list marker. Found from the digits backwards (a spelled-number alternation
 * tried at every word would cost more than all the other patterns together).
 */
export const digitsInParensRe = /\(\s*(\d{1,3})\s*\)/g;
export const spelledLeftRe = new RegExp(`(?<![\\w-])(${WORD})\\s*$`, 'i');
/** A short literal in single quotes, "'pending'", "'no longer needed'": a named value (a status, a reason, an option). */
export const quotedLiteralRe = /(?<![\w'‘])['‘]([a-z][a-z0-9 ()-]{0,38}[a-z0-9)])['’](?![\w'])/g;

/** Words that make the number after them a structural label ("paragraph (2)", "title 42"), not a fact. */
export const structuralBefore =
  /\b(?:sub)?(?:paragraphs?|clauses?|chapters?|parts?|titles?|articles?|sections?|items?|steps?|pages?|lines?|rules?|schedules?|exhibits?|appendix|annex|figures?|tables?|notes?|levels?|tiers?|phases?|stages?|versions?|questions?|no\.|nos\.|page \d+ of)\s*\(?$/i;
