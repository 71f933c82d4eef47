import type { PromptAnalysis, Sentence } from './demo-prompt.ts';
import { contentStems, stemCounts, type DurationMatch } from './demo-text.ts';

/**
 * Ranks the prompt's sentences against the question (BM25 over sentences, plus a few
 * question-type preferences) and composes answers from the best match. Deterministic:
 * ties keep document order.
 */

export interface Ranked {
  sentence: Sentence;
  score: number;
}

const durationQuestion = /\b(how (long|soon|much time|many (calendar |business )?(days?|hours?|weeks?|months?|years?))|deadline|time ?limit|by when|when (must|should|do|does|can|is|are|will)|within how)\b/i;
const firstPerson = /\b(i|me|my|we|our|i'm|i've)\b/i;
const personWords = /\b(individual|member|beneficiary|enrollee|claimant|patient|insured|participant|subscriber|customer|you|appellant|employee)\b/i;

export function isDurationQuestion(question: string | null): boolean {
  return Boolean(question && durationQuestion.test(question));
}

function askedUnit(question: string): string | null {
  return /\b(day|hour|week|month|year)s?\b/i.exec(question)?.[1]?.toLowerCase() ?? null;
}

function isParenthetical(text: string, index: number): boolean {
  const before = text.slice(0, index);
  return before.lastIndexOf('(') > before.lastIndexOf(')') && /^[^()]*\)/.test(text.slice(index));
}

export function rankEvidence(analysis: PromptAnalysis): Ranked[] {
  const { question, sentences } = analysis;
  if (!question || sentences.length === 0) return [];
  const query = [...new Set(contentStems(question))];
  if (query.length === 0) return [];
  const df = new Map<string, number>();
  for (const s of sentences) for (const t of stemCounts(s.stems).keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const n = sentences.length;
  const avgdl = sentences.reduce((sum, s) => sum + s.stems.length, 0) / n || 1;
  const wantsDuration = isDurationQuestion(question);
  const unit = askedUnit(question);
  const personal = firstPerson.test(question);
  // Low length normalisation: statute sentences that state a full rule are long.
  const k1 = 1.2;
  const b = 0.3;

  const ranked: Ranked[] = [];
  for (const s of sentences) {
    let score = 0;
    let matched = 0;
    let covered = 0;
    const titleStems = stemCounts(contentStems(s.titles.join(' ')));
    const counts = stemCounts(s.stems);
    for (const t of query) {
      const tf = counts.get(t) ?? 0;
      const d = df.get(t) ?? 0;
      const idf = Math.log(1 + (n - d + 0.5) / (d + 0.5));
      // The headings a sentence sits under say what it is about, at a lower weight than its words.
      if (titleStems.has(t)) {
        score += 0.4 * idf;
        if (!tf) covered += 0.5;
      }
      if (!tf) continue;
      matched++;
      score += (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * s.stems.length) / avgdl));
    }
    if (matched === 0) continue;
    // A sentence that covers more of the question beats one that repeats a single word.
    score *= 0.5 + (matched + covered) / query.length;
    // A duration in parentheses ("(not to exceed 14 days)") qualifies a rule; it is not the rule.
    const durations = s.durations.filter((dm) => !isParenthetical(s.text, dm.index));
    if (wantsDuration && durations.length > 0) {
      score *= 1.6;
      if (unit && durations.some((dm) => dm.unit === unit)) score *= 1.25;
    }
    // "Do I have to…": prefer rules whose actor is the person asking, not the administrator.
    if (personal && personWords.test(s.text)) score *= 1.2;
    // A quote handed over by an earlier step is read as a pointer to where the answer is.
    if (s.fromJson) score *= 1.15;
    ranked.push({ sentence: s, score });
  }
  return ranked.sort((x, y) => y.score - x.score);
}

/** Sentences worth citing: distinct text, within half of the best score. */
export function relevant(ranked: Ranked[]): Ranked[] {
  const top = ranked[0]?.score ?? 0;
  return ranked.filter((r) => r.score >= top * 0.5);
}

export function citation(analysis: PromptAnalysis, sentence: Sentence): string | null {
  const id = sentence.sectionId;
  if (!id) return null;
  // Positional ids ("s7", "p3") name a heading or paragraph, not a numbered section.
  if (/^[sp]\d+$/.test(id)) return `section ${id}`;
  if (analysis.docPrefix) return `${analysis.docPrefix}${id.startsWith('(') ? '' : ' '}${id}`;
  return id.startsWith('(') ? `section ${id}` : `§ ${id}`;
}

/** "How many days do I have to request X?" → "request X", in the second person. */
function actionPhrase(question: string): string | null {
  const q = question.replace(/\?+\s*$/, '').trim();
  const m =
    /\b(?:have|has|get|got)\s+to\s+(.+)$/i.exec(q) ??
    /\b(?:must|should|can|do|does|may|will)\s+(?:i|we|you|they|a member|the member)\s+(.+)$/i.exec(q) ??
    /\b(?:must|should|can|does|may|will)\s+(?:the |a |an )?[A-Za-z]+\s+(.+)$/i.exec(q) ??
    /\bto\s+(.+)$/i.exec(q);
  if (!m?.[1]) return null;
  return m[1]
    .replace(/\bmy\b/gi, 'your')
    .replace(/\bmine\b/gi, 'yours')
    .replace(/\b(i|me)\b/gi, 'you')
    .replace(/\bour\b/gi, 'your')
    .replace(/\bwe\b/gi, 'you');
}

/** The clause of `text` that carries the duration, e.g. "by not later than the end of the 180-day period …". */
export function deadlineClause(text: string, d: DurationMatch): string {
  const before = text.slice(0, d.index);
  let start = 0;
  for (const m of before.matchAll(/\b(?:by not later than|not later than|no later than|within|before|by the end of|after)\b/gi)) {
    if (d.index - (m.index ?? 0) <= 140) {
      start = m.index ?? 0;
      break;
    }
  }
  if (start === 0) {
    const boundary = Math.max(before.lastIndexOf(', '), before.lastIndexOf('; '));
    start = boundary >= 0 ? boundary + 2 : 0;
  }
  const rest = text.slice(d.index + d.text.length);
  const stop = rest.search(/[,;]|\.\s*$/);
  const end = d.index + d.text.length + (stop >= 0 ? stop : rest.length);
  return text.slice(start, end).trim();
}

function pickDuration(sentence: Sentence, question: string): DurationMatch | undefined {
  const unit = askedUnit(question);
  return sentence.durations.find((d) => d.unit === unit) ?? sentence.durations[0];
}

/**
 * Answers the question from what the prompt holds. A duration in the best material is stated
 * with its number and unit verbatim; material that only says "promptly" yields "promptly".
 */
export function composeAnswer(analysis: PromptAnalysis, ranked: Ranked[]): { text: string; source: Sentence | null } {
  const question = analysis.question;
  const best = ranked[0];
  if (!best) {
    const text = question
      ? 'The material provided does not answer this question, so no answer can be given from it.'
      : 'No question was found in the material provided.';
    return { text, source: null };
  }
  if (!question || !isDurationQuestion(question)) {
    const cite = citation(analysis, best.sentence);
    return { text: `According to ${cite ?? 'the material'}: ${best.sentence.text}`, source: best.sentence };
  }
  const personal = firstPerson.test(question);
  const action = actionPhrase(question);
  const withDuration = ranked.find((r, i) => r.sentence.durations.length > 0 && (i === 0 || r.score >= best.score * 0.6));
  if (withDuration) {
    const s = withDuration.sentence;
    const d = pickDuration(s, question);
    if (d) {
      const cite = citation(analysis, s);
      const lead = personal ? `You have ${d.spoken}${action ? ` to ${action}` : ''}` : `The time limit${action ? ` to ${action}` : ''} is ${d.spoken}`;
      return { text: `${lead}. The document sets the limit: “${deadlineClause(s.text, d)}”${cite ? ` (${cite})` : ''}.`, source: s };
    }
  }
  // The best material carries no figure: the honest answer from it is the vague one.
  const lead = personal
    ? `You should ${action ?? 'act'} promptly after you receive the notice.`
    : `${action ? `To ${action}, act` : 'Act'} promptly after the notice is received.`;
  return { text: `${lead} The material says: ${best.sentence.text.replace(/^[^:]{1,80}:\s+/, '')}`, source: best.sentence };
}

/** A short reason for selecting a sentence, for fields such as `why`. */
export function composeReason(sentence: Sentence): string {
  const d = sentence.durations[0];
  const where = sentence.titles.slice(-2).join(' — ');
  return `${d ? `States a time limit (${d.text})` : 'Bears on the question'}${where ? ` under “${where}”` : ''}`;
}
