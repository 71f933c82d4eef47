/**
 * Strings that break code generators, for battery B7 (#11): every place a chain holds text is
 * filled with these, and both exports must still compile, import back equal and send the same
 * requests as the engine. The families: quotes and escapes of TypeScript, Python and JSON;
 * comment and string terminators; template and format syntax; line and paragraph separators;
 * control, bidi and zero-width characters; lone surrogates; the embedded-chain markers; names
 * that are keywords or prototype members; and long runs. Deterministic: the same list each run.
 */
const BASES: readonly string[] = [
  '"', "'", '`', '\\', '\\\\', '\\"', "\\'", '\\n', '\\u0000', '\\x41', '\\N{BULLET}', '\\',
  '${x}', '${', '`${`', '#{x}', '{x}', '{{x}}', '{0}', '%s', '%(x)s', '%%', 'f"{x}"', "r'\\d'",
  '*/', '/*', '//', '#', '"""', "'''", '<!--', '-->', '</script>', '<script>', ']]>', '?>',
  '\n', '\r', '\r\n', '\u2028', '\u2029', '\u0085', '\t', '\v', '\f', '\u0000', '\u0007', '\u001b[2J',
  '\u202e', '\u2066', '\u200b', '\ufeff', '\u00a0', '\ud800', '\udfff', '\ud83d\ude00', '👩‍👩‍👧', 'é', 'é',
  '<seamscope:chain>', '</seamscope:chain>', '/* <seamscope:chain>', '# </seamscope:chain>',
  '__proto__', 'constructor', 'toString', 'prototype', 'hasOwnProperty', 'None', 'True', 'lambda', 'import os',
  'await', 'yield', 'class', 'def', 'exec("x")', "__import__('os')", 'process.exit(1)', '$(rm -rf /)', '; ls',
  'null', 'undefined', 'NaN', '-0', '1e400', '[]', '{}', '"}', "'}]", ')', '(', 'end"""+"', "x'+'y",
];

const SHAPES: readonly ((s: string, i: number) => string)[] = [
  (s) => s,
  (s) => `before ${s} after`,
  (s, i) => `${s}${BASES[(i + 7) % BASES.length]}${s}`,
  (s) => `line one\n${s}\nline three`,
  (s) => `"${s}" and '${s}' and \`${s}\``,
  (s) => `${s} `.repeat(40).trimEnd(),
];

/** At least 500 distinct adversarial strings. */
export function adversarialStrings(): string[] {
  const out = new Set<string>();
  BASES.forEach((base, i) => {
    for (const shape of SHAPES) out.add(shape(base, i));
  });
  return [...out];
}
