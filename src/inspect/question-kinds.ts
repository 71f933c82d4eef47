import { FACT_KINDS, type FactKind } from './facts.ts';

/**
 * Which kinds of fact a question or instruction asks for. Cues are phrased as questions
 * ask them ("how many days", "when must"), not as bare keywords, because the same check
 * runs on instruction templates where "when the document is silent…" is not a question.
 */
const timeUnit = '(?:calendar |business |working )?(?:minutes?|hours?|days?|weeks?|months?|years?)';
const auxiliary = '(?:must|should|do|does|did|can|could|is|are|was|were|will|would|has|have)';

const cues: Record<FactKind, RegExp> = {
  duration: new RegExp(
    `\\bhow (?:long|soon|quickly|much time|many ${timeUnit})\\b|\\b(?:number of|within how many) ${timeUnit}|` +
      `\\b(?:deadlines?|time ?limits?|time ?frames?|timelines?|waiting periods?|by when|how often|expire|expires|expiry|expiration)\\b|` +
      `\\bwhen ${auxiliary}\\b|\\b(?:state|give|include|keep|preserve)\\b[^.?!\\n]{0,40}\\b(?:deadlines?|durations?|time limits?)\\b`,
    'i',
  ),
  date: new RegExp(
    `\\b(?:what|which) (?:date|day of|year|month)\\b|\\bby what (?:date|time)\\b|` +
      `\\b(?:deadlines?|due dates?|effective dates?|start dates?|end dates?|expiry dates?|expiration dates?|by when)\\b|\\bwhen ${auxiliary}\\b`,
    'i',
  ),
  money: /\bhow much\b(?! (?:time|longer|later|earlier|sooner))|\b(?:costs?|price[sd]?|fees?|charges?|charged|premiums?|deductibles?|co-?pays?|refunds?|reimburse\w*|dollars?|amounts? (?:due|owed|of money|in controversy)|owe|owed|spend)\b|\$/i,
  percentage: /\b(?:what|which) (?:percent(?:age)?|share|fraction|proportion|rate)\b|\bpercent(?:age)?s?\b|%|\b(?:interest|tax|discount|growth) rates?\b/i,
  number: new RegExp(`\\bhow many\\b(?! ${timeUnit}\\b)|\\b(?:what|which) number\\b|\\bhow (?:big|large|heavy|far|tall|old)\\b|\\b(?:minimum|maximum) number\\b`, 'i'),
  id: /\b(?:order|claim|account|ticket|case|invoice|reference|confirmation|tracking|policy|member|reservation|booking|transaction|user|product|item)[\s_]*(?:ids?|numbers?|no\.?|#)(?![\w])|\b(?:which|what) (?:order|ticket|reservation|booking|account)\b/i,
  section: /\b(?:which|what) (?:section|subsection|paragraph|provision|clause|article|rule|statute|part)s?\b|\bcit(?:e|es|ing|ation|ations)\b|\bunder what (?:section|provision|authority|law)\b|§/i,
  condition: /\b(?:what|which) (?:conditions?|circumstances|criteria|requirements?|exceptions?)\b|\bunder what (?:conditions?|circumstances)\b|\b(?:qualif(?:y|ies)|eligib(?:le|ility)|exempt(?:ion)?|exceptions?)\b|\bexpedit\w*|\burgent\b/i,
};

/**
 * @example
 * askedKinds('How many days do I have to appeal a denied claim?') // → ['duration']
 * askedKinds('What is the deadline and how much is the fee?')     // → ['duration', 'money', 'date']
 */
export function askedKinds(text: string): FactKind[] {
  if (!text) return [];
  return FACT_KINDS.filter((kind) => cues[kind].test(text));
}
