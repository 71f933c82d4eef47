// Seamscope: regular expressions from files, matched in linear time. Shared by the engine and the
// exported TypeScript runtime (each export writes it into its runtime folder:
// src/export/runtime-sources.ts).
import { RE2JS } from 're2js';
import { translatePattern } from './pattern-syntax.ts';

export { MAX_REPEAT } from './pattern-syntax.ts';

/**
 * A JSON Schema `pattern` is a JavaScript `u`-flag regular expression (what ajv compiles), but a
 * backtracking engine takes exponential time on `^(a+)+$`, and a chain file is untrusted. So a
 * pattern is translated to RE2 syntax with the JavaScript meaning kept (`\s`, `.`, `$` and
 * escapes spelled out) and matched by re2js, whose time is linear in the input. The constructs
 * RE2 cannot match in linear time (backreferences, lookaround) and the ones whose meaning
 * differs between engines (`\p{…}`, lone surrogates) are refused with a reason, which
 * chain validation reports with the pattern's path before anything runs.
 */
export interface LinearPattern {
  /** Whether the pattern matches somewhere in `text` (JavaScript's `RegExp.prototype.test`). */
  test(text: string): boolean;
}

export type PatternResult = { ok: true; pattern: LinearPattern } | { ok: false; problem: string };

const cache = new Map<string, PatternResult>();

/**
 * Compiles a schema pattern for linear-time matching, or says why it cannot be (the message
 * chain validation shows next to the pattern's path). Results are cached by source.
 *
 * @example
 * const r = compilePattern('^(a+)+$');
 * if (r.ok) r.pattern.test('a'.repeat(10_000) + 'b'); // false, at once
 */
export function compilePattern(source: string): PatternResult {
  let result = cache.get(source);
  if (result) return result;
  result = compileUncached(source);
  if (cache.size >= 512) cache.delete(cache.keys().next().value as string);
  cache.set(source, result);
  return result;
}

function compileUncached(source: string): PatternResult {
  const translated = translatePattern(source);
  if (!translated.ok) return translated;
  try {
    const re = RE2JS.compile(translated.re2);
    return { ok: true, pattern: { test: (text) => re.test(text) } };
  } catch (error) {
    // pattern-syntax.ts refuses what RE2 would, so this is a disagreement to report, not a path a chain takes.
    return { ok: false, problem: `is not supported by the linear-time matcher (RE2): ${(error as Error).message}` };
  }
}
