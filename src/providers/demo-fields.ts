import type { PromptAnalysis } from './demo-prompt.ts';
import { snake } from './demo-roles.ts';
import { contentStems, isStopword } from './demo-text.ts';

/**
 * Form-style extraction for the demo model: typed facts found in the material or an explicit
 * null (never a guess), the sentence that states what a customer asks for, classification
 * labels chosen by keyword overlap with the material, and a keyword search query.
 * Injected instructions were already dropped from the material by the prompt reader.
 */

/** The material a step was handed: its data frames (minus injected instructions), else its sentences. */
export function material(analysis: PromptAnalysis): string {
  let text = analysis.frames.length > 0 ? analysis.frames.map((f) => f.text).join('\n') : analysis.sentences.map((s) => s.text).join('\n');
  for (const line of analysis.ignored) text = text.split(line).join(' ');
  return text;
}

const moneyPattern = /\$\s?(\d[\d,]*(?:\.\d+)?)|\b(\d[\d,]*(?:\.\d+)?)\s?(?:dollars|usd)\b/i;
const emailPattern = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/;
const phonePattern = /\+?\d[\d\s().-]{7,}\d/;
const datePattern = /\b(?:\d{4}-\d{2}-\d{2}|\d{1,2}\/\d{1,2}\/\d{2,4}|(?:January|February|March|April|May|June|July|August|September|October|November|December) \d{1,2}(?:, \d{4})?)\b/;

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A "Label: value" line whose label is the field's name (`order_id` ↔ "Order ID:" or "Order:"). */
function labelled(text: string, words: string[]): string | null {
  const full = words.map(escape).join('[ _-]*');
  const head = escape(words[0] ?? '');
  for (const pattern of [full, `${head}(?:[ _-]*(?:id|number|no\\.?|#))?`]) {
    const m = new RegExp(`^[ \\t>*-]*${pattern}\\s*:\\s*(\\S.*)$`, 'im').exec(text);
    if (m?.[1]) return m[1].trim();
  }
  return null;
}

/**
 * A fact for a nullable field, or null when the material does not state it. `undefined`
 * means the field is not a fact this reader knows how to look for.
 */
export function factFor(fieldName: string, numeric: boolean, analysis: PromptAnalysis): unknown {
  const name = snake(fieldName);
  const words = name.split('_').filter(Boolean);
  const text = material(analysis);
  if (numeric || /amount|price|cost|total|refund|fee|charge|paid|balance|sum$/.test(name)) {
    const m = moneyPattern.exec(text);
    const n = m ? Number((m[1] ?? m[2] ?? '').replace(/,/g, '')) : NaN;
    if (!numeric) return m ? m[0] : null;
    return Number.isFinite(n) ? n : null;
  }
  if (/email/.test(name)) return emailPattern.exec(text)?.[0] ?? null;
  if (/phone/.test(name)) return phonePattern.exec(text)?.[0]?.trim() ?? null;
  if (/(^|_)date$|_on$|_at$/.test(name)) return datePattern.exec(text)?.[0] ?? null;
  const label = labelled(text, words.filter((w) => w !== 'id' && w !== 'number'));
  if (/(^|_)(id|number|no|ref|reference)$/.test(name)) {
    const id = label?.match(/#?[A-Za-z]{0,4}\d[\w-]{2,}/)?.[0];
    if (id) return id;
    const key = escape(words[0] ?? '');
    const near = new RegExp(`\\b${key}\\w*\\s*(?:id|number|no\\.?)?\\s*[:#]?\\s*(#?[A-Za-z]{0,4}\\d[\\w-]{3,})`, 'i').exec(text);
    // A "#W8665881"-style reference is an id wherever it stands.
    return near?.[1] ?? /(?:^|[\s"'(])(#[A-Za-z]{0,4}\d{4,})\b/.exec(text)?.[1] ?? null;
  }
  return label;
}

const requestCue = /\b(?:i(?:'d| would) like|i want|i need|i wish|i am asking|i'm asking|please|can you|could you|i am writing to|help me|wants? to|wish(?:es)? to)\b/i;

/** The sentence that says what the customer wants. */
export function requestSentence(analysis: PromptAnalysis): string | null {
  const sentences = analysis.sentences.map((s) => s.text);
  return sentences.find((s) => requestCue.test(s)) ?? analysis.question ?? sentences[0] ?? null;
}

/** Cue phrases per label word, for labels whose own word rarely appears in a ticket. */
// Looked up by words of enum values from the chain: only own keys count (an option "constructor" is a word, not Object).
const cues: Record<string, string[]> = {
  refund: ['refund', 'money back', 'reimburs'],
  return: ['return', 'send back', 'send it back'],
  exchange: ['exchange', 'swap', 'replace', 'different size', 'different color'],
  cancel: ['cancel', 'no longer need', 'ordered by mistake'],
  modify: ['modify', 'change my order', 'switch'],
  address: ['address', 'moved', 'ship to', 'delivered to'],
  billing: ['bill', 'charged', 'overcharg', 'invoice', 'double charge'],
  account: ['account', 'password', 'log in', 'login', 'username'],
  shipping: ['shipping', 'delivery', 'tracking', 'arrive', 'package'],
  legal: ['lawyer', 'attorney', 'sue', 'lawsuit', 'court', 'legal action', 'small claims'],
  safety: ['injur', 'fire', 'burn', 'smoke', 'electric shock', 'hurt', 'hazard', 'unsafe', 'danger', 'explod', 'overheat'],
  how: ['how do i', 'how can i', 'how to'],
  angry: ['furious', 'outrage', 'unacceptable', 'ridiculous', 'angry', 'worst', 'disgust', 'scam'],
  frustrated: ['frustrat', 'annoy', 'disappoint', 'still', 'again', 'waited', 'third time', 'nobody'],
  critical: ['injur', 'fire', 'smoke', 'emergency', 'danger', 'lawyer', 'attorney'],
  high: ['urgent', 'asap', 'immediately', 'right away', 'today', 'as soon as possible'],
};
const neutral = /^(?:calm|neutral|normal|medium|standard|routine|other|general|none|unknown|ok|positive)$/i;

/**
 * A classification label: the option whose words and cue phrases occur most in the material
 * (ties to the earlier option); with no signal, the neutral option when there is one.
 */
export function classifyOption(options: readonly unknown[], analysis: PromptAnalysis): unknown {
  const text = material(analysis).toLowerCase();
  const stems = new Set(contentStems(text));
  let best: { v: unknown; score: number } | null = null;
  for (const v of options) {
    if (typeof v !== 'string') continue;
    const words = v.toLowerCase().split(/[\s_-]+/).filter(Boolean);
    let score = contentStems(words.join(' ')).filter((s) => stems.has(s)).length;
    for (const w of words) for (const cue of (Object.hasOwn(cues, w) ? cues[w] : undefined) ?? []) if (new RegExp(`\\b${escape(cue)}`).test(text)) score += 1;
    if (score > 0 && (!best || score > best.score)) best = { v, score };
  }
  if (best) return best.v;
  return options.find((v) => typeof v === 'string' && neutral.test(v));
}

const filler = new Set('hi hello hey dear please thanks thank regards help know tell being it\'s im i\'m able really just very also anyone'.split(' '));

/** A search query from a question: its content words, in order, once each. */
export function keywordQuery(question: string): string {
  const words = (question.match(/[A-Za-z0-9][A-Za-z0-9'-]*/g) ?? []).map((w) => w.toLowerCase());
  const kept = words.filter((w) => !isStopword(w) && !filler.has(w) && (w.length > 1 || /\d/.test(w)));
  return [...new Set(kept)].join(' ') || question;
}
