// Seamscope: a schema `pattern` read and translated to RE2 syntax, without the matcher. Shared by
// the engine and the exported TypeScript runtime (each export writes it into its runtime folder:
// src/export/runtime-sources.ts).

/**
 * Checking a chain's schemas (at validate, at import, at the app's first paint) needs to know
 * whether each pattern can be matched, not to match it, so this half has no dependencies: the
 * matcher (re2js, about 150 KB) loads only where values are validated (pattern.ts). For that to
 * hold, this translator refuses everything RE2 would refuse after it: besides the constructs RE2
 * cannot match in linear time, RE2's limits on nested repeat counts, program size and nesting
 * depth are computed here on the pattern's structure (conservatively: a pattern these pass
 * compiles in RE2; pattern.test.ts checks the two agree).
 */
export type TranslateResult = { ok: true; re2: string } | { ok: false; problem: string };

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

/** RE2 refuses a pattern whose nested repeat counts multiply past this (its repeatIsValid). */
const MAX_REPEAT_PRODUCT = MAX_REPEAT;
/** Below RE2's program-size limit (1,398,101 in re2js), leaving room for how RE2 counts. */
export const MAX_PATTERN_SIZE = 1_000_000;
/** Groups nested deeper than this are refused; RE2's limit is 1,000 levels of its own tree, and a group can cost three. */
export const MAX_GROUP_DEPTH = 250;

interface Frame {
  /** Sizes of the alternatives closed by `|`, summed. */
  closed: number;
  alternatives: number;
  /** Size of the alternative being read. */
  current: number;
  /** The last atom, which a quantifier applies to: its size and the repeat product inside it. */
  last: { size: number; product: number } | null;
  /** The largest repeat product anywhere in the frame. */
  product: number;
}

/**
 * The size and repeat-nesting of a pattern as RE2's parser counts them (calcSize and
 * repeatIsValid in re2js), kept while the translator reads the pattern left to right.
 */
class Shape {
  private frames: Frame[] = [Shape.frame()];

  private static frame(): Frame {
    return { closed: 0, alternatives: 0, current: 0, last: null, product: 1 };
  }

  private get top(): Frame {
    return this.frames[this.frames.length - 1] as Frame;
  }

  private push(size: number, product: number) {
    const f = this.top;
    f.current += size;
    f.last = { size, product };
    f.product = Math.max(f.product, product);
  }

  atom() {
    this.push(1, 1);
  }

  open() {
    if (this.frames.length > MAX_GROUP_DEPTH) throw new Refused(`groups nested more than ${MAX_GROUP_DEPTH} deep are not supported`);
    this.frames.push(Shape.frame());
  }

  private size(f: Frame): number {
    // An alternation costs its alternatives (an empty one still 1) plus one per `|`.
    return f.alternatives === 0 ? Math.max(1, f.current) : f.closed + Math.max(1, f.current) + f.alternatives;
  }

  close() {
    const f = this.frames.pop() as Frame;
    this.push(this.size(f), f.product);
  }

  alternative() {
    const f = this.top;
    f.closed += Math.max(1, f.current);
    f.alternatives++;
    f.current = 0;
    f.last = null;
  }

  /** `*` adds 2 to its atom's size, `+` and `?` add 1. */
  simpleRepeat(extra: number) {
    const f = this.top;
    const last = f.last as { size: number; product: number };
    f.current += extra;
    last.size += extra;
    this.check(f);
  }

  /** `{min}`, `{min,max}` or `{min,}` (max null). */
  repeat(min: number, max: number | null, text: string) {
    const f = this.top;
    const last = f.last as { size: number; product: number };
    const count = max ?? min;
    const product = last.product * Math.max(1, count);
    if (product > MAX_REPEAT_PRODUCT) throw new Refused(`nested repeat counts ({${text}} around a repeat) multiply to ${product}, above ${MAX_REPEAT_PRODUCT}`);
    const size = max === null ? (min === 0 ? 2 + last.size : 1 + min * last.size) : Math.max(1, max * last.size + (max - min));
    f.current += size - last.size;
    f.last = { size, product };
    f.product = Math.max(f.product, product);
    this.check(f);
  }

  private check(f: Frame) {
    if (f.closed + f.current > MAX_PATTERN_SIZE) throw new Refused(`the pattern expands to more than ${MAX_PATTERN_SIZE.toLocaleString('en-US')} instructions`);
  }

  finish() {
    const total = this.size(this.frames[0] as Frame);
    if (total > MAX_PATTERN_SIZE) throw new Refused(`the pattern expands to more than ${MAX_PATTERN_SIZE.toLocaleString('en-US')} instructions`);
  }
}

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

  // The structure RE2's limits are computed on, one frame per open group.
  const shape = new Shape();
  let afterQuantifier = false;
  while (i < cps.length) {
    const c = peek();
    const quantifierBefore = afterQuantifier;
    afterQuantifier = false;
    if (c === '\\') {
      i++;
      const atom = escape(false);
      out += 'text' in atom ? atom.text : hex(atom.cp);
      shape.atom();
    } else if (c === '[') {
      i++;
      readClass();
      shape.atom();
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
      shape.open();
    } else if (c === ')') {
      i++;
      out += c;
      shape.close();
    } else if (c === '|') {
      i++;
      out += c;
      shape.alternative();
    } else if (c === '{') {
      let text = '';
      i++;
      while (peek() !== '}') text += String.fromCodePoint(cps[i++] as number);
      i++;
      const counts = text.split(',').filter((n) => n !== '').map(Number);
      if (counts.some((n) => n > MAX_REPEAT)) throw new Refused(`a repeat count above ${MAX_REPEAT} ({${text}}) is not supported`);
      out += `{${text}}`;
      const [min = 0, max] = counts;
      shape.repeat(min, text.includes(',') ? (max ?? null) : min, text);
      afterQuantifier = true;
    } else if ('*+?'.includes(c)) {
      i++;
      out += c;
      // `?` straight after a quantifier makes it lazy: same size, nothing repeated again.
      if (!(c === '?' && quantifierBefore)) {
        shape.simpleRepeat(c === '*' ? 2 : 1);
        afterQuantifier = true;
      }
    } else if (c === '.') {
      i++;
      out += DOT;
      shape.atom();
    } else if (c === '^' || c === '$') {
      i++;
      out += c;
      shape.atom();
    } else {
      const cp = cps[i++] as number;
      if (isSurrogate(cp)) throw new Refused('a lone surrogate in a pattern matches differently between engines');
      out += literal(cp);
      shape.atom();
    }
  }
  shape.finish();
  return out;
}


const cache = new Map<string, TranslateResult>();

/**
 * Whether a schema pattern can be matched in linear time, and its RE2 translation if so; the
 * problem is what chain validation shows next to the pattern's path. Cached by source.
 *
 * @example
 * translatePattern('(a)\\1'); // { ok: false, problem: 'is not supported: backreferences (\\1) …' }
 */
export function translatePattern(source: string): TranslateResult {
  let result = cache.get(source);
  if (result) return result;
  result = translateUncached(source);
  if (cache.size >= 512) cache.delete(cache.keys().next().value as string);
  cache.set(source, result);
  return result;
}

function translateUncached(source: string): TranslateResult {
  try {
    // Syntax as JavaScript reads it (ajv's `new RegExp(p, "u")`): constructing does not match, so no backtracking happens here.
    new RegExp(source, 'u');
  } catch (error) {
    return { ok: false, problem: `is not a valid regular expression: ${(error as Error).message.replace(/^Invalid regular expression: /, '')}` };
  }
  try {
    return { ok: true, re2: toRe2(source) };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, problem: `is not supported: ${error.message}` };
    throw error;
  }
}
