import { citation, relevant, type Ranked } from './demo-evidence.ts';
import type { PromptAnalysis, Sentence } from './demo-prompt.ts';
import { cutAtWord, dropCrossReferences, vagueify } from './demo-text.ts';

/**
 * The demo's general-purpose summariser, modelled on the failure it exists to show: one
 * plain sentence per top-level section, keeping the shape of the document (that there is an
 * appeals process, that a deadline exists) and dropping every specific figure. It never sees
 * the question, so it cannot know which figure mattered.
 */

const maxSentence = 220;
const numberWords = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];

function words(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/** A section's representative sentence: the first that states a rule with a deadline, else the first complete one. */
function representative(sentences: Sentence[]): Sentence | undefined {
  return (
    sentences.find((s) => s.durations.length > 0 && words(s.text) >= 8) ??
    sentences.find((s) => /[.]$/.test(s.text) && words(s.text) >= 8) ??
    sentences[0]
  );
}

const leadingClause = /^(?:subject to|except as provided|notwithstanding|in promulgating|for purposes of|consistent with|with respect to)\b[^,]*,\s*/i;

/** Rewrites one sentence the way a summary would: no cross-references, no figures, "shall" → "must". */
export function condense(text: string): string {
  let out = text;
  while (leadingClause.test(out)) out = out.replace(leadingClause, '');
  out = vagueify(dropCrossReferences(out))
    .replace(/\bshall\b/g, 'must')
    .replace(/,\s*(?:as the case may be|if any),/g, '')
    .replace(/\s+([,.;])/g, '$1')
    .replace(/,\s*,/g, ',')
    .replace(/[;:,]\s*$/, '')
    .trim();
  // A summary line stays short: long rules are cut at a word and marked as cut.
  if (out.length > maxSentence) {
    const clause = out.lastIndexOf(', ', maxSentence);
    out = clause > maxSentence / 2 ? `${out.slice(0, clause).replace(/\s+(?:and|or)$/, '')}.` : `${cutAtWord(out, maxSentence)}…`;
  }
  else if (!/[.!?]$/.test(out)) out += '.';
  return out.charAt(0).toUpperCase() + out.slice(1);
}

/**
 * A summary told the question: the passages that bear on it, in document order, each under
 * its heading. Asked to preserve figures verbatim, it copies the sentences; otherwise it
 * condenses them like the general summary, figures and all.
 */
function conditionedSummary(analysis: PromptAnalysis, ranked: Ranked[]): string {
  const order = new Map(analysis.sentences.map((s, i) => [s, i]));
  const chosen = relevant(ranked).slice(0, 5).map((r) => r.sentence).sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
  const lines = chosen.map((s) => {
    const where = [s.titles.slice(-2).join(' — '), citation(analysis, s)].filter(Boolean).join(', ');
    const body = analysis.preserveVerbatim ? s.text : condense(s.text);
    return where ? `${where}: ${body}` : body;
  });
  return [`The parts of the document that bear on the question (${chosen.length}):`, ...lines].join(' ');
}

export function composeSummary(analysis: PromptAnalysis, ranked: Ranked[] = []): string {
  if (analysis.question && ranked.length > 0) return conditionedSummary(analysis, ranked);
  const sections = analysis.sections.filter((s) => s.sentences.length > 0);
  if (sections.length === 0) {
    // No headings to follow: condense a handful of evenly spaced sentences instead.
    const all = analysis.sentences.filter((s) => !s.fromJson && words(s.text) >= 6);
    const step = Math.max(1, Math.floor(all.length / 6));
    const picked = all.filter((_, i) => i % step === 0).slice(0, 6);
    if (picked.length === 0) return 'The material provided contains no text to summarise.';
    return picked.map((s) => condense(s.text)).join(' ');
  }
  const count = numberWords[sections.length] ?? 'several';
  const intro = `The document has ${count} main part${sections.length === 1 ? '' : 's'}.`;
  const lines = sections.map((section) => {
    const s = representative(section.sentences);
    const title = vagueify(dropCrossReferences(section.title));
    return s ? `${title}: ${condense(s.text)}` : `${title}.`;
  });
  return [intro, ...lines].join(' ');
}
