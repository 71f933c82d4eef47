/**
 * Token counting with a real BPE tokenizer (o200k_base, the encoding of current OpenAI
 * models; a close estimate for others). The encoding is ~2 MB, so it is loaded through
 * import() and lands in its own chunk, only when a run or an estimate needs it.
 */
import { TextCache } from '../text-cache.ts';

export type TokenCounter = (text: string) => number;

let loading: Promise<TokenCounter> | null = null;

// Text that happens to contain "<|endoftext|>" (an untrusted ticket, say) is counted as plain
// text: the default would throw and end the run on an input nobody controls.
const noSpecialTokens = { disallowedSpecial: new Set<string>() };

/**
 * BPE merges within one pre-tokenized word, and its merge loop is quadratic in the word's
 * length: 200,000 characters of one letter (a hostile input, a base64 blob) took ~28 s. Runs
 * of non-space characters longer than this are counted in pieces of this size, as tiktoken
 * implementations bound their pieces; ordinary text (no such run) is counted exactly as before.
 * A piece boundary can shift the count by a token or so per 512 characters of the run.
 */
export const LONG_RUN = 512;
const longRun = new RegExp(`\\S{${LONG_RUN},}`, 'g');

/** Splits `text` so no part holds a run of non-space characters longer than LONG_RUN. */
export function boundedPieces(text: string): string[] {
  longRun.lastIndex = 0;
  if (!longRun.test(text)) return [text];
  const pieces: string[] = [];
  let at = 0;
  longRun.lastIndex = 0;
  for (const m of text.matchAll(longRun)) {
    if (m.index > at) pieces.push(text.slice(at, m.index));
    for (let i = 0; i < m[0].length; i += LONG_RUN) pieces.push(m[0].slice(i, i + LONG_RUN));
    at = m.index + m[0].length;
  }
  if (at < text.length) pieces.push(text.slice(at));
  return pieces;
}

/** A counter over an encoding's `countTokens`, linear in the text's length. */
export function boundedCounter(countTokens: (text: string) => number): TokenCounter {
  return (text) => {
    if (!text) return 0;
    let total = 0;
    for (const piece of boundedPieces(text)) total += countTokens(piece);
    return total;
  };
}

/** Texts at least this long are remembered with their count; shorter ones cost less to count than to look up. */
export const REMEMBERED_MIN_CHARS = 2_000;

/**
 * A counter that remembers the counts of long texts. The same long text comes back again and
 * again: the document bound into every item's prompt, in every variant of an eval, measured
 * again by each budget check; counting it (BPE, linear but slow: ~1 s per MB) was most of the
 * CPU an eval over a statute spent. Least recently used out first; at most 256 texts and 32 M
 * characters are held.
 */
export function rememberingCounter(count: TokenCounter): TokenCounter {
  const known = new TextCache<number>({ texts: 256, chars: 32_000_000 });
  return (text) => {
    if (text.length < REMEMBERED_MIN_CHARS) return count(text);
    return known.get(text) ?? known.set(text, count(text));
  };
}

export function loadTokenCounter(): Promise<TokenCounter> {
  loading ??= import('gpt-tokenizer/encoding/o200k_base').then((m) => rememberingCounter(boundedCounter((text) => m.countTokens(text, noSpecialTokens))));
  return loading;
}

/** A rough count for places that cannot wait for the tokenizer (never used in the trace). */
/** UTF-16 code units per token in the rough estimate. */
export const ESTIMATE_UNITS_PER_TOKEN = 4;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / ESTIMATE_UNITS_PER_TOKEN);
}
