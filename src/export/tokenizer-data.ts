/**
 * The o200k_base rank table, from the same gpt-tokenizer data the engine counts with, as a
 * text file the exported Python runtime reads. It also carries the pre-tokenizer's character
 * classes (\p{L}, \p{N} and the two case classes) as this JavaScript engine defines them, so the
 * Python side splits text by the engine's Unicode version and needs no Unicode scan of its own.
 * Only chains that count tokens (input budgets, split steps) ship it.
 *
 * Format, one item per line: `seamscope-bpe-ranks 2 o200k_base`; `class <name> <ranges>` (hex,
 * `a-b` or `a`, comma-separated) for L, N, U and W; `ranks`; then one line per rank: `s` (a token
 * that is text) or `b` (bytes), a space and the token's bytes in base64 (empty line: unused rank).
 */
export const RANKS_FILE = 'o200k_base.ranks';

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

const CLASSES: Record<string, RegExp> = {
  L: /^\p{L}$/u,
  N: /^\p{N}$/u,
  U: /^[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]$/u,
  W: /^[\p{Ll}\p{Lm}\p{Lo}\p{M}]$/u,
};

function classRanges(test: RegExp): string {
  const ranges: string[] = [];
  let start = -1;
  for (let cp = 0; cp <= 0x110000; cp++) {
    const inside = cp < 0x110000 && test.test(String.fromCodePoint(cp));
    if (inside && start < 0) start = cp;
    else if (!inside && start >= 0) {
      ranges.push(start === cp - 1 ? start.toString(16) : `${start.toString(16)}-${(cp - 1).toString(16)}`);
      start = -1;
    }
  }
  return ranges.join(',');
}

let cached: Promise<string> | null = null;

export function o200kRanksText(): Promise<string> {
  cached ??= (async () => {
    const { default: ranks } = await import('gpt-tokenizer/bpeRanks/o200k_base');
    const encoder = new TextEncoder();
    const lines: string[] = ['seamscope-bpe-ranks 2 o200k_base'];
    for (const [name, test] of Object.entries(CLASSES)) lines.push(`class ${name} ${classRanges(test)}`);
    lines.push('ranks');
    for (let rank = 0; rank < ranks.length; rank++) {
      const value = ranks[rank];
      if (value === undefined) lines.push('');
      else if (typeof value === 'string') lines.push(`s ${base64(encoder.encode(value))}`);
      else lines.push(`b ${base64(Uint8Array.from(value))}`);
    }
    return `${lines.join('\n')}\n`;
  })();
  return cached;
}
