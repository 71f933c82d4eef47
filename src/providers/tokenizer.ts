/**
 * Token counting with a real BPE tokenizer (o200k_base, the encoding of current OpenAI
 * models; a close estimate for others). The encoding is ~2 MB, so it is loaded through
 * import() and lands in its own chunk, only when a run or an estimate needs it.
 */
export type TokenCounter = (text: string) => number;

let loading: Promise<TokenCounter> | null = null;

// Text that happens to contain "<|endoftext|>" (an untrusted ticket, say) is counted as plain
// text: the default would throw and end the run on an input nobody controls.
const noSpecialTokens = { disallowedSpecial: new Set<string>() };

export function loadTokenCounter(): Promise<TokenCounter> {
  loading ??= import('gpt-tokenizer/encoding/o200k_base').then((m) => (text: string) => (text ? m.countTokens(text, noSpecialTokens) : 0));
  return loading;
}

/** A rough count for places that cannot wait for the tokenizer (never used in the trace). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
