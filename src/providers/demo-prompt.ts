import { contentStems, findDurations, sentenceSpans, type DurationMatch } from './demo-text.ts';
import { extractJsonBlocks, leafPieces } from './demo-json.ts';

/**
 * Reads a prompt the way the demo model needs it: the question, the candidate evidence
 * sentences (with the heading path each sits under) and the document's top-level sections.
 * It knows nothing about any particular document; structure comes from Markdown headings,
 * "(a)/(1)/(A)/(i)/(I)" enumerators (US Code style) and dotted section numbers ("7.3").
 */

export interface Sentence {
  /** A verbatim slice of the prompt. */
  text: string;
  /** Heading path such as "(b)(1)(D)(i)" or "7.3", or a section_id handed over in JSON. */
  sectionId: string | null;
  /** Heading titles along the path, outermost first. */
  titles: string[];
  /** Came from a JSON value in the prompt (an earlier step's selection). */
  fromJson: boolean;
  /** Shared with every other sentence of the same text (memoised): read, never changed. */
  stems: readonly string[];
  durations: readonly DurationMatch[];
}

export interface Section {
  title: string;
  sentences: Sentence[];
}

export interface PromptAnalysis {
  question: string | null;
  /** Evidence candidates: neither instructions nor the question itself. */
  sentences: Sentence[];
  /** The document's top-level sections, for a summary. */
  sections: Section[];
  /** "§ 1395ff" when a heading names the document's own section number. */
  docPrefix: string | null;
  /** The prompt asks for a summary. */
  wantsSummary: boolean;
  /** An instruction asks to keep numbers, deadlines or wording verbatim. */
  preserveVerbatim: boolean;
  /** An instruction asks for every given id back ("return exactly the clause ids listed"). */
  coverAll: boolean;
  /** What each <data> frame carried (as sent), by name. */
  frames: { name: string; text: string }[];
  /** JSON values handed over in the prompt (earlier steps' outputs), parsed. */
  json: unknown[];
  /** Sentences inside the material that address the model ("ignore previous instructions…"): never evidence. */
  ignored: string[];
}

export type PromptMessage = { role: string; content: string };

/** Text in the material that tries to instruct the model rather than inform it. */
export const injectionPattern =
  /\b(?:ignore|disregard|forget|override)\b[^.!?]{0,40}\b(?:previous|prior|above|earlier|all|your|system)\b[^.!?]{0,30}\b(?:instructions?|prompts?|rules?|messages?)\b|\byou are now\b|\bnew instructions?\s*:|\bsystem (?:prompt|note|override|message)\s*:|\broute (?:this|it|me|the ticket)? ?to\b/i;
const preservePattern = /\b(?:preserve|keep|copy|quote)\b.*\b(?:verbatim|exactly|word for word|numbers?|deadlines?|figures?|amounts?)\b/i;
const coverPattern = /\b(?:exactly|every|all (?:of )?(?:the|these))\b[^.]*\b(?:ids?|clauses|units|items|records)\b/i;
const feedbackPattern = /previous response was invalid|was invalid:|did not match the schema|failed validation/i;
const imperative = new Set(
  ('answer summarise summarize select quote return respond use give list cite preserve keep write read extract identify find ' +
    'choose pick explain include do don\'t never always only output reply provide set state check note consider make ensure copy ' +
    'base treat classify decide translate rewrite draft you please').split(' '),
);

const backReference = /^\((?:the [\w .'-]{1,60} given above|the result of the instruction above)\)$/i;

function stripTags(line: string): string {
  return line.replace(/<\/?data\b[^>]*>/gi, '').trim();
}

function isInstruction(paragraph: string): boolean {
  const first = /^[\s"“*_-]*([A-Za-z']+)/.exec(paragraph)?.[1]?.toLowerCase() ?? '';
  return imperative.has(first);
}

/** The question: a "Question:" label, a <data name="question"> frame, or the last line ending in "?". */
function findQuestion(texts: string[]): string | null {
  let labelled: string | null = null;
  let asked: string | null = null;
  for (const text of texts) {
    const framed = /<data name="(?:[\w.]*[._])?(?:question|query|request)[^"]*">\n?([\s\S]*?)\n?<\/data>/i.exec(text);
    if (framed?.[1]?.trim()) labelled = framed[1].trim();
    const lines = text.split('\n');
    lines.forEach((raw, i) => {
      const line = stripTags(raw);
      const label = /(?:^|\s)(?:the )?(?:member'?s |user'?s |customer'?s )?question\s*:\s*(.*)$/i.exec(line) ?? /^(?:the )?customer'?s request\s*:\s*(.*)$/i.exec(line);
      if (label) {
        const rest = label[1]?.trim() || lines.slice(i + 1).map(stripTags).find((l) => l.length > 0) || '';
        // "Question: (the question given above)" points back at the question; it is not one.
        if (rest && !backReference.test(rest)) labelled = rest;
      } else if (line.endsWith('?') && line.length <= 500) asked = line;
    });
  }
  const found = (labelled ?? asked) as string | null;
  return found ? found.replace(/^["“']|["”']$/g, '').trim() : null;
}

type EnumKind = 'lower' | 'digit' | 'upper' | 'lroman' | 'uroman';
const depthOf: Record<EnumKind, number> = { lower: 0, digit: 1, upper: 2, lroman: 3, uroman: 4 };

/** US Code enumerators: (a) subsection, (1) paragraph, (A) subparagraph, (i) clause, (I) subclause. */
function enumKind(token: string, stack: (string | undefined)[]): EnumKind {
  if (/^\d+$/.test(token)) return 'digit';
  const lower = token === token.toLowerCase();
  const roman = /^[ivxlcdm]+$/i.test(token);
  if (roman && (token.length > 1 || 'ivx'.includes(token.toLowerCase()))) {
    // A single i/v/x is a letter only when it follows the letter before it: (h) then (i).
    const letterDepth = lower ? 0 : 2;
    const prev = stack[letterDepth]?.replace(/[()]/g, '');
    const follows = token.length === 1 && prev !== undefined && prev.charCodeAt(0) + 1 === token.charCodeAt(0);
    if (!follows) return lower ? 'lroman' : 'uroman';
  }
  return lower ? 'lower' : 'upper';
}

interface Heading {
  level: number;
  title: string;
  firstSentence: number;
}

/** A short capitalised line without closing punctuation reads as a title ("Time limits for filing appeals"), not a rule. */
function looksLikeTitle(text: string): boolean {
  return /^[A-Z]/.test(text) && text.length <= 120 && !/[.;:,!?]$/.test(text) && text.split(/\s+/).length <= 12;
}

export function analysePrompt(messages: PromptMessage[]): PromptAnalysis {
  const userTexts = messages.filter((m) => m.role === 'user' && !feedbackPattern.test(m.content)).map((m) => m.content);
  const question = findQuestion(userTexts);
  const sentences: Sentence[] = [];
  const headings: Heading[] = [];
  let docPrefix: string | null = null;
  let wantsSummary = false;
  let preserveVerbatim = false;
  let coverAll = false;
  const ignored: string[] = [];
  const json: unknown[] = [];
  const frames = userTexts.flatMap((t) => [...t.matchAll(/<data name="([^"]*)">\n?([\s\S]*?)\n?<\/data>/g)].map((m) => ({ name: m[1] ?? '', text: m[2] ?? '' })));
  const questionText = question ? question.trim() : null;

  const pushSentence = (text: string, sectionId: string | null, titles: string[], fromJson: boolean) => {
    if (text.length < 12 || (questionText && text.includes(questionText))) return;
    if (injectionPattern.test(text)) return void ignored.push(text);
    sentences.push({ text, sectionId, titles, fromJson, stems: contentStems(text), durations: findDurations(text) });
  };

  for (const content of userTexts) {
    const { text, leaves, values } = extractJsonBlocks(content);
    json.push(...values);
    for (const leaf of leaves) for (const piece of leafPieces(leaf.text, sentenceSpans)) pushSentence(piece.text, leaf.sectionId, piece.titles, true);

    let base: string | null = null;
    const stack: (string | undefined)[] = [];
    const titles: (string | undefined)[] = [];
    let inData = false;
    let inComment = false;
    for (const rawLine of text.split('\n')) {
      // HTML comments (provenance notes and the like) are not the document's text.
      if (inComment || rawLine.trimStart().startsWith('<!--')) {
        inComment = !rawLine.includes('-->');
        continue;
      }
      // A line that opens a frame ("Question: <data …>") is judged by where it starts.
      const startedInData = inData;
      if (/<data\b/i.test(rawLine)) inData = true;
      const line = stripTags(rawLine);
      if (/<\/data>/i.test(rawLine)) inData = false;
      if (!line || line === questionText) continue;
      if (!startedInData && isInstruction(line)) {
        if (/\bsummar(?:y|i[sz]e)/i.test(line)) wantsSummary = true;
        if (preservePattern.test(line)) preserveVerbatim = true;
        if (coverPattern.test(line)) coverAll = true;
        continue;
      }
      if (/^[^.?!]{1,60}:$/.test(line) || /^question\s*:/i.test(line)) continue; // labels such as "Document:"
      // A pointer back to material given earlier in the prompt (a generated single-prompt
      // baseline writes "(the document given above)" where a step would have been handed it) is
      // not material itself: the material is where it points.
      if (backReference.test(line)) continue;

      const md = /^(#{1,6})\s+(.*)$/.exec(line);
      const body0 = md ? (md[2] ?? '') : line;
      const section = /^(?:§\s*|Section\s+)?(\d+(?:\.\d+)+|\d+\.)\s+(\S.*)$/.exec(body0);
      const prefix = /§\s*([0-9][\w–-]*[A-Za-z][\w–-]*|[0-9]+)\.?(?:\s|$)/.exec(body0);
      const enumerator = /^\(([A-Za-z]{1,5}|\d{1,3})\)\s+(.*)$/.exec(body0) ?? /^(\d{1,3})\)\s+(.*)$/.exec(body0);
      let body = body0;
      let headingLevel = md ? (md[1] ?? '').length : 0;
      let headingTitle = '';

      if (section && !md && !looksLikeTitle(section[2] ?? '')) {
        // "4.1 A member may appeal a denied claim within 180 days." is a clause: its number is
        // where it sits, its text is text. The heading above it stays its title.
        base = (section[1] ?? '').replace(/\.$/, '');
        stack.length = 0;
        titles.length = Math.min(titles.length, 1);
        body = section[2] ?? '';
      } else if (section) {
        base = (section[1] ?? '').replace(/\.$/, '');
        stack.length = 0;
        titles.length = 0;
        body = section[2] ?? '';
        titles[0] = body;
        headingLevel = headingLevel || 7;
        headingTitle = body;
        body = '';
      } else if (enumerator) {
        const token = enumerator[1] ?? '';
        const depth = depthOf[enumKind(token, stack)];
        stack.length = depth;
        titles.length = depth;
        stack[depth] = `(${token})`;
        body = enumerator[2] ?? '';
        // "(D) Time limits for filing appeals" is a heading; "(A) the written notice shall…" is text.
        if (md || looksLikeTitle(body)) {
          titles[depth] = body;
          headingLevel = headingLevel || 8 + depth;
          headingTitle = body;
          body = '';
        }
      } else if (md) {
        if (prefix && !docPrefix) docPrefix = `§ ${prefix[1]}`;
        headingTitle = body;
        body = '';
      }
      if (headingLevel && headingTitle) headings.push({ level: headingLevel, title: headingTitle, firstSentence: sentences.length });
      if (!body) continue;

      const path = (base ?? '') + stack.filter(Boolean).join('');
      const pathTitles = titles.filter((t): t is string => Boolean(t));
      for (const [s, e] of sentenceSpans(body)) pushSentence(body.slice(s, e), path || null, pathTitles, false);
    }
  }

  return { question, sentences: dedupe(sentences), sections: topSections(headings, sentences), docPrefix, wantsSummary, preserveVerbatim, coverAll, frames, json, ignored };
}

/** The same sentence handed over in JSON and present in the document counts once. */
function dedupe(sentences: Sentence[]): Sentence[] {
  const byText = new Map<string, Sentence>();
  for (const s of sentences) {
    const seen = byText.get(s.text);
    if (!seen) byText.set(s.text, s);
    else {
      seen.fromJson ||= s.fromJson;
      if (!s.fromJson && s.sectionId) seen.sectionId = s.sectionId;
      if (s.titles.length > seen.titles.length) seen.titles = s.titles;
    }
  }
  return [...byText.values()];
}

/** The shallowest heading level that occurs at least twice is the document's top level. */
function topSections(headings: Heading[], sentences: Sentence[]): Section[] {
  const counts = new Map<number, number>();
  for (const h of headings) counts.set(h.level, (counts.get(h.level) ?? 0) + 1);
  const levels = [...counts.entries()].filter(([, n]) => n >= 2).map(([l]) => l).sort((a, b) => a - b);
  const level = levels[0];
  if (level === undefined) return [];
  const out: Section[] = [];
  headings.forEach((h, i) => {
    if (h.level !== level) return;
    const next = headings.slice(i + 1).find((n) => n.level <= level);
    out.push({ title: h.title, sentences: sentences.slice(h.firstSentence, next ? next.firstSentence : sentences.length) });
  });
  return out;
}
