import type { Sentence } from './demo-prompt.ts';
import { codePoints, conforms, type Schema } from './demo-schema.ts';
import { cutAtWord, fitAround } from './demo-text.ts';

/**
 * Scalar values for the demo model: numbers found in the prompt within the schema's bounds,
 * verbatim quotes cut to length around their figure, and strings fitted to min/max length.
 */

/** The first candidate number that fits, else the smallest value the schema allows. */
export function fitNumber(s: Schema, root: Schema, integer: boolean, candidates: number[]): number {
  const fits = (v: number) => conforms({ ...s, type: integer ? 'integer' : 'number' }, v, root);
  const found = candidates.find(fits);
  if (found !== undefined) return found;
  const step = typeof s.multipleOf === 'number' && s.multipleOf > 0 ? s.multipleOf : integer ? 1 : 0.5;
  let lo = typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + step / 2 : 0;
  if (typeof s.maximum === 'number' && lo > s.maximum) lo = s.maximum;
  const v = Math.ceil(lo / step) * step;
  return fits(v) ? v : Math.floor((typeof s.maximum === 'number' ? s.maximum : lo) / step) * step;
}

/** Numbers as written in texts, leaving out digits glued to words or inside "(1)". */
export function numbersIn(texts: string[]): number[] {
  const out: number[] = [];
  for (const t of texts) for (const m of t.matchAll(/(?<![\w(])\d+(?:\.\d+)?(?![\w)])/g)) out.push(Number(m[0]));
  return out;
}

/** A verbatim quote no longer than `max`, centred on the duration when the sentence has one. */
export function quoteOf(sentence: Sentence, max: number, min: number, fallbacks: Sentence[]): string {
  const chosen = sentence.text.length < min ? (fallbacks.find((x) => x.text.length >= min) ?? sentence) : sentence;
  const d = chosen.durations[0];
  return Number.isFinite(max) ? fitAround(chosen.text, max, d?.index ?? 0, d ? d.index + d.text.length : 0) : chosen.text;
}

/**
 * Fits text to a string schema: cut at a word to maxLength; when it does not conform, try the
 * alternatives; when it is too short, extend it with more material and cut again.
 */
export function fitString(text: string, s: Schema, root: Schema, alternatives: string[]): string {
  const max = typeof s.maxLength === 'number' ? s.maxLength : Infinity;
  const min = typeof s.minLength === 'number' ? s.minLength : 0;
  const ok = (v: string) => conforms({ ...s, type: 'string' }, v, root);
  const cut = (v: string) => (Number.isFinite(max) ? cutAtWord(v, max) || v.slice(0, max) : v);
  const first = cut(text);
  if (ok(first)) return first;
  const alts = alternatives.map(cut);
  const alt = alts.find(ok);
  if (alt !== undefined) return alt;
  const filler = [text, ...alts].find((t) => t.trim().length > 0) ?? 'n/a';
  let padded = first || filler;
  const need = min - codePoints(padded);
  if (need > 0) padded += ` ${filler}`.repeat(Math.ceil(need / (filler.length + 1)) + 1);
  const result = cut(padded);
  return codePoints(result) >= min ? result : padded.slice(0, max);
}
