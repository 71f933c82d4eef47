/**
 * Hostile strings for the escaping and identifier tests: every kind of quote, template and
 * interpolation syntax, backslashes, line and paragraph separators, NUL, lone and reversed
 * surrogates, emoji and ZWJ sequences, bidi overrides, comment and script terminators, and
 * some very long strings. Generated from a seed, so every run tests the same ones.
 */
export const HOSTILE_PIECES: readonly string[] = [
  "'", '"', '`', "'''", '"""', '``', '${', '${x}', '#{x}', '{question}', '{{', '}}', '%s', '%(x)s', '\\', '\\\\', '\\n', '\\u0000',
  '\\x00', '\\N{BULLET}', '\\U0001F600', '\n', '\r', '\r\n', '\t', '\v', '\f', '\b', '\u2028', '\u2029', '\u0085', '\0', '\u00001',
  '\u0007', '\u001b[31m', '\u007f', '\u009f', '\ud800', '\udbff', '\udc00', '\udfff', '\udc00\ud800', '\ud83d', '\ude00', '😀',
  '👨\u200d👩\u200d👧', '🏳️\u200d🌈', 'e\u0301', 'é', 'ﬁ', 'Ω', '日本語', 'مرحبا', '\u200f', '\u200e', '\u202e', '\u2066', '\u2069',
  '\u061c', '\ufeff', '\u00ad', '\u200b', '\ufffd', '\uffff', '\ufffe', '</script>', '<!--', '-->', '*/', '/*', '/**/', '//', '#',
  '# comment', '"""docstring"""', "r'", 'b"', 'f"{x}"', '\\"', "\\'", 'None', 'True', 'null', 'undefined', '__proto__', 'constructor',
  'toString', '0', '-0', '1e400', 'NaN', ' ', '  ', '\u3000', '\u00a0', 'a', 'Z', '_', '$', '@', '🙂'.repeat(3),
];

/**
 * The embedded-chain markers and the lines around them, alone and as whole lines: a chain's
 * strings may hold any of them and must still be one chain that exports and imports back.
 */
export const MARKER_PIECES: readonly string[] = [
  '<seamscope:chain>', '</seamscope:chain>', '<seamscope:chain></seamscope:chain>',
  '// <seamscope:chain> The chain this file was generated from; Seamscope reads it back when the file is imported.',
  '\n// <seamscope:chain>\nexport const CHAIN: rt.ChainDefinition = {\n};\n// </seamscope:chain>\n',
  '\n# <seamscope:chain>\nCHAIN_JSON = r"""\n{}\n"""\n# </seamscope:chain>\n',
  '\n};\n', '\n"""\n', '# </seamscope:chain>', '// </seamscope:chain>',
];

/** A small seeded PRNG (mulberry32), so the corpus is the same on every run. */
export function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` strings: each piece alone, then random concatenations, then a few 100 KB strings. */
export function hostileStrings(count = 600, seed = 7): string[] {
  const random = seeded(seed);
  const pick = () => HOSTILE_PIECES[Math.floor(random() * HOSTILE_PIECES.length)] as string;
  // The marker pieces join the corpus without changing the seeded picks that follow.
  const out = [...HOSTILE_PIECES, ...MARKER_PIECES];
  while (out.length < count - 3) {
    let s = '';
    const n = 1 + Math.floor(random() * 8);
    for (let i = 0; i < n; i++) s += random() < 0.3 ? String.fromCharCode(Math.floor(random() * 0x10000)) : pick();
    out.push(s);
  }
  let big = '';
  while (big.length < 100_000) big += pick();
  out.push(big, `${big.slice(0, 50_000)}\ud800${'"'.repeat(1000)}`, 'x'.repeat(100_000));
  return out;
}
