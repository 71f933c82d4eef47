// Seamscope: regular expressions from files, matched in linear time. Shared by the engine and the
// exported TypeScript runtime (copied there by src/export/runtime/bundle.ts; edit src/schema/).
import { RE2JS } from 're2js';

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

/** RE2's own bound on `{n,m}`; larger counts are refused rather than silently expanded. */
export const MAX_REPEAT = 1000;

// JavaScript's \s: WhiteSpace and LineTerminator code points.
const WS_RANGES: readonly [number, number][] = [
  [0x09, 0x0d], [0x20, 0x20], [0xa0, 0xa0], [0x1680, 0x1680], [0x2000, 0x200a], [0x2028, 0x2029],
  [0x202f, 0x202f], [0x205f, 0x205f], [0x3000, 0x3000], [0xfeff, 0xfeff],
];
const MAX_CP = 0x10ffff;

const hex = (cp: number) => `\\x{${cp.toString(16)}}`;
const rangeText = (ranges: readonly [number, number][]) => ranges.map(([a, b]) => (a === b ? hex(a) : `${hex(a)}-${hex(b)}`)).join('');

function complement(ranges: readonly [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  let next = 0;
  for (const [a, b] of ranges) {
    if (a > next) out.push([next, a - 1]);
    next = b + 1;
  }
  if (next <= MAX_CP) out.push([next, MAX_CP]);
  return out;
}

const WS = rangeText(WS_RANGES);
const NOT_WS = rangeText(complement(WS_RANGES));
// JavaScript's `.` without the s flag: anything but a line terminator.
const DOT = `[^${hex(0x0a)}${hex(0x0d)}${hex(0x2028)}${hex(0x2029)}]`;

class Refused extends Error {}

const isSurrogate = (cp: number) => cp >= 0xd800 && cp <= 0xdfff;

/**
 * Translates a (syntactically valid) JavaScript `u` pattern into RE2 syntax, or throws Refused.
 * Groups become non-capturing: a schema pattern only answers "does it match".
 */
function toRe2(source: string): string {
  const cps = Array.from(source, (c) => c.codePointAt(0) as number);
  let i = 0;
  let out = '';
  const peek = (k = 0) => (i + k < cps.length ? String.fromCodePoint(cps[i + k] as number) : '');
  const readHex = (count: number): number => {
    const digits = cps.slice(i, i + count).map((c) => String.fromCodePoint(c)).join('');
    i += count;
    return parseInt(digits, 16);
  };
  // An escape after the backslash, as one code point, or a class/assertion text when it is not one.
  const escape = (inClass: boolean): { cp: number } | { text: string } => {
    const c = peek();
    i++;
    switch (c) {
      case 'd': case 'D': case 'w': case 'W': return { text: `\\${c}` };
      case 's': return { text: inClass ? WS : `[${WS}]` };
      case 'S': return { text: inClass ? NOT_WS : `[${NOT_WS}]` };
      case 'b': return inClass ? { cp: 0x08 } : { text: '\\b' };
      case 'B': return { text: '\\B' };
      case 't': return { cp: 0x09 };
      case 'n': return { cp: 0x0a };
      case 'v': return { cp: 0x0b };
      case 'f': return { cp: 0x0c };
      case 'r': return { cp: 0x0d };
      case '0': return { cp: 0 };
      case 'c': return { cp: (cps[i++] as number) % 32 };
      case 'x': return { cp: readHex(2) };
      case 'u': {
        if (peek() === '{') {
          i++;
          let digits = '';
          while (peek() !== '}') digits += String.fromCodePoint(cps[i++] as number);
          i++;
          const cp = parseInt(digits, 16);
          if (isSurrogate(cp)) throw new Refused('a lone surrogate (\\u{…} naming half of a UTF-16 pair) matches differently between engines');
          return { cp };
        }
        const cp = readHex(4);
        if (cp >= 0xd800 && cp <= 0xdbff && peek() === '\\' && peek(1) === 'u' && peek(2) !== '{') {
          const save = i;
          i += 2;
          const low = readHex(4);
          if (low >= 0xdc00 && low <= 0xdfff) return { cp: 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00) };
          i = save;
        }
        if (isSurrogate(cp)) throw new Refused('a lone surrogate (\\u escape naming half of a UTF-16 pair) matches differently between engines');
        return { cp };
      }
      case 'k': throw new Refused('backreferences (\\k<name>) cannot be matched in linear time');
      case 'p': case 'P': throw new Refused(`Unicode property escapes (\\${c}{…}) are not supported: spell the characters out`);
      default:
        if (c >= '1' && c <= '9') throw new Refused(`backreferences (\\${c}) cannot be matched in linear time`);
        return { cp: c.codePointAt(0) as number };
    }
  };
  const literal = (cp: number) => (/[A-Za-z0-9 _]/.test(String.fromCodePoint(cp)) ? String.fromCodePoint(cp) : hex(cp));

  const readClass = () => {
    let negated = false;
    if (peek() === '^') {
      negated = true;
      i++;
    }
    if (peek() === ']') {
      i++;
      // JavaScript's [] matches nothing and [^] anything; RE2 would read `]` as a literal.
      out += negated ? `[${hex(0)}-${hex(MAX_CP)}]` : `[^${hex(0)}-${hex(MAX_CP)}]`;
      return;
    }
    let body = '';
    let canStartRange = false;
    while (peek() !== ']') {
      const c = peek();
      if (c === '-' && canStartRange && peek(1) !== ']') {
        body += '-';
        i++;
        canStartRange = false;
        const atom = peek() === '\\' ? (i++, escape(true)) : { cp: cps[i++] as number };
        if ('text' in atom) throw new Refused('a class escape cannot end a range');
        if (isSurrogate(atom.cp)) throw new Refused('a lone surrogate in a character class matches differently between engines');
        body += hex(atom.cp);
        continue;
      }
      const atom = c === '\\' ? (i++, escape(true)) : { cp: cps[i++] as number };
      if ('text' in atom) {
        body += atom.text;
        canStartRange = false;
      } else {
        if (isSurrogate(atom.cp)) throw new Refused('a lone surrogate in a character class matches differently between engines');
        body += hex(atom.cp);
        canStartRange = true;
      }
    }
    i++;
    out += `[${negated ? '^' : ''}${body}]`;
  };

  while (i < cps.length) {
    const c = peek();
    if (c === '\\') {
      i++;
      const atom = escape(false);
      out += 'text' in atom ? atom.text : hex(atom.cp);
    } else if (c === '[') {
      i++;
      readClass();
    } else if (c === '(') {
      i++;
      if (peek() === '?') {
        const next = peek(1);
        if (next === '=' || next === '!') throw new Refused('lookahead ((?= or (?!) cannot be matched in linear time');
        if (next === '<' && (peek(2) === '=' || peek(2) === '!')) throw new Refused('lookbehind ((?<= or (?<!) is not supported');
        if (next === ':') i += 2;
        else if (next === '<') {
          while (peek() !== '>') i++;
          i++;
        } else throw new Refused(`the group (?${next} is not supported`);
      }
      out += '(?:';
    } else if (c === '{') {
      let text = '';
      i++;
      while (peek() !== '}') text += String.fromCodePoint(cps[i++] as number);
      i++;
      const counts = text.split(',').filter((n) => n !== '').map(Number);
      if (counts.some((n) => n > MAX_REPEAT)) throw new Refused(`a repeat count above ${MAX_REPEAT} ({${text}}) is not supported`);
      out += `{${text}}`;
    } else if (c === '.') {
      i++;
      out += DOT;
    } else if ('^$|)*+?'.includes(c)) {
      i++;
      out += c;
    } else {
      const cp = cps[i++] as number;
      if (isSurrogate(cp)) throw new Refused('a lone surrogate in a pattern matches differently between engines');
      out += literal(cp);
    }
  }
  return out;
}

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
  try {
    // Syntax as JavaScript reads it (ajv's `new RegExp(p, "u")`): constructing does not match, so no backtracking happens here.
    new RegExp(source, 'u');
  } catch (error) {
    return { ok: false, problem: `is not a valid regular expression: ${(error as Error).message.replace(/^Invalid regular expression: /, '')}` };
  }
  let translated: string;
  try {
    translated = toRe2(source);
  } catch (error) {
    if (error instanceof Refused) return { ok: false, problem: `is not supported: ${error.message}` };
    throw error;
  }
  try {
    const re = RE2JS.compile(translated);
    return { ok: true, pattern: { test: (text) => re.test(text) } };
  } catch (error) {
    return { ok: false, problem: `is not supported by the linear-time matcher (RE2): ${(error as Error).message}` };
  }
}
