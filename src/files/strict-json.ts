/**
 * A strict JSON reader for files that arrive from elsewhere (chains, traces, inputs).
 *
 * `JSON.parse` accepts two things a shared file must not carry: a key written twice (the
 * second silently wins, so a reviewer reads one `prompt` and the run sends another) and a
 * number too large for a double (`1e400` becomes Infinity, which no schema meant). This
 * reader sees the raw text, so it refuses both with the JSON path of the value. It is one
 * pass over the text with an explicit stack (no recursion, so no stack overflow on deep
 * nesting) and a key set per open object: linear in the size of the file.
 *
 * Values come out as `JSON.parse` makes them: plain objects and arrays whose keys are own data
 * properties, so a key such as `__proto__` is an ordinary key and never reaches a prototype.
 */

export type JsonPath = readonly (string | number)[];

export type StrictJsonResult =
  | { ok: true; value: unknown }
  | { ok: false; code: StrictJsonErrorCode; path: JsonPath; message: string; offset: number };

/** Why the text was refused; the callers that word their own limits switch on `depth`. */
export type StrictJsonErrorCode = 'syntax' | 'duplicate-key' | 'non-finite' | 'depth';

export interface StrictJsonOptions {
  /** Deepest nesting of objects and arrays accepted (default 512). */
  maxDepth?: number;
}

const DEFAULT_MAX_DEPTH = 512;

class StrictJsonError extends Error {
  constructor(message: string, readonly offset: number, readonly code: StrictJsonErrorCode) {
    super(message);
  }
}

/** One open object or array: the container, its keys so far (objects), and the key being read. */
interface Frame {
  container: Record<string, unknown> | unknown[];
  keys: Set<string> | null;
  /** Null while an object's next key is not read yet, so an error there names the object. */
  key: string | number | null;
}

const isWhitespace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const hex4 = /^[0-9a-fA-F]{4}$/;
const escapes: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** "line 3, column 7" for an offset, counted only when an error is reported. */
function position(text: string, offset: number): string {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return `line ${line}, column ${offset - start + 1}`;
}

/** A printable form of the character at `i` for an error message. */
function describeChar(text: string, i: number): string {
  if (i >= text.length) return 'the end of the text';
  const c = text.charCodeAt(i);
  return c < 0x20 || c > 0x7e ? `the character U+${c.toString(16).toUpperCase().padStart(4, '0')}` : `"${text[i]}"`;
}

class Reader {
  i = 0;
  constructor(readonly text: string) {}

  skipWhitespace(): void {
    const { text } = this;
    while (this.i < text.length && isWhitespace(text.charCodeAt(this.i))) this.i++;
  }

  fail(message: string, at = this.i, code: StrictJsonErrorCode = 'syntax'): never {
    throw new StrictJsonError(message, at, code);
  }

  expected(what: string): never {
    this.fail(`expected ${what} but found ${describeChar(this.text, this.i)}`);
  }

  readString(): string {
    const { text } = this;
    const start = this.i;
    this.i++; // the opening quote
    let out = '';
    let run = this.i;
    for (;;) {
      if (this.i >= text.length) this.fail('a string is not closed', start);
      const c = text.charCodeAt(this.i);
      if (c === 0x22) {
        out += text.slice(run, this.i);
        this.i++;
        return out;
      }
      if (c < 0x20) this.fail(`a control character (U+${c.toString(16).toUpperCase().padStart(4, '0')}) must be escaped inside a string`);
      if (c !== 0x5c) {
        this.i++;
        continue;
      }
      out += text.slice(run, this.i);
      const e = text[this.i + 1];
      if (e === 'u') {
        const digits = text.slice(this.i + 2, this.i + 6);
        if (!hex4.test(digits)) this.fail('\\u must be followed by four hex digits');
        out += String.fromCharCode(parseInt(digits, 16));
        this.i += 6;
      } else if (e !== undefined && Object.hasOwn(escapes, e)) {
        out += escapes[e];
        this.i += 2;
      } else {
        this.fail(`"\\${e ?? ''}" is not a JSON escape`);
      }
      run = this.i;
    }
  }

  readNumber(): number {
    const { text } = this;
    const start = this.i;
    if (text.charCodeAt(this.i) === 0x2d) this.i++;
    const first = text.charCodeAt(this.i);
    if (first === 0x30) this.i++;
    else if (isDigit(first)) while (isDigit(text.charCodeAt(this.i))) this.i++;
    else this.expected('a digit');
    if (text.charCodeAt(this.i) === 0x2e) {
      this.i++;
      if (!isDigit(text.charCodeAt(this.i))) this.expected('a digit after the decimal point');
      while (isDigit(text.charCodeAt(this.i))) this.i++;
    }
    const e = text.charCodeAt(this.i);
    if (e === 0x65 || e === 0x45) {
      this.i++;
      const sign = text.charCodeAt(this.i);
      if (sign === 0x2b || sign === 0x2d) this.i++;
      if (!isDigit(text.charCodeAt(this.i))) this.expected('a digit in the exponent');
      while (isDigit(text.charCodeAt(this.i))) this.i++;
    }
    const literal = text.slice(start, this.i);
    const value = Number(literal);
    if (!Number.isFinite(value)) this.fail(`the number ${literal.length > 40 ? `${literal.slice(0, 40)}…` : literal} is too large to represent (it would become ${value})`, start, 'non-finite');
    return value;
  }

  readWord(word: string, value: unknown): unknown {
    if (!this.text.startsWith(word, this.i)) this.expected('a JSON value');
    this.i += word.length;
    return value;
  }
}

/** The path of the value being read: each open container's current key. */
function pathOf(stack: readonly Frame[]): (string | number)[] {
  return stack.flatMap((f) => (f.key === null ? [] : [f.key]));
}

/** Stores `value` in the innermost container as an own data property (never through a setter). */
function store(frame: Frame, value: unknown): void {
  if (Array.isArray(frame.container)) frame.container.push(value);
  else Object.defineProperty(frame.container, frame.key as string, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * Reads JSON text strictly: standard JSON only, no duplicate keys, no number that overflows to
 * Infinity. Never throws; a refusal names the JSON path, the line and the column.
 *
 * @example
 * const read = parseStrictJson('{"prompt": "a", "prompt": "b"}');
 * // { ok: false, code: 'duplicate-key', path: ['prompt'], message: 'the key "prompt" appears twice in the same object (line 1, column 17)', … }
 */
export function parseStrictJson(text: string, options: StrictJsonOptions = {}): StrictJsonResult {
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const fast = parseNative(body, maxDepth);
  if (fast !== undefined) return { ok: true, value: fast.value };
  return parseStrictly(body, maxDepth);
}

/**
 * The common case, fast: JSON.parse (native, many times faster than reading in JS), then two
 * checks that prove the strict reader would agree: every key written in the text is a key of the
 * value (a key written twice leaves one fewer), and every number is finite and no nesting too
 * deep. Undefined when the text is refused or a check fails: the strict reader then reads it
 * again, to say exactly what and where.
 */
function parseNative(text: string, maxDepth: number): { value: unknown } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const inValue = keysAndChecks(value, maxDepth);
  return inValue >= 0 && inValue === keysWritten(text) ? { value } : undefined;
}

/** Keys of every object in the value, or -1 for a non-finite number or nesting deeper than `maxDepth` (iterative: no stack overflow). */
function keysAndChecks(root: unknown, maxDepth: number): number {
  let keys = 0;
  const stack: [unknown, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop() as [unknown, number];
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) return -1;
    } else if (value !== null && typeof value === 'object') {
      if (depth >= maxDepth) return -1;
      const children = Array.isArray(value) ? value : Object.values(value);
      if (!Array.isArray(value)) keys += children.length;
      for (const child of children) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
      else if (typeof child === 'number' && !Number.isFinite(child)) return -1;
    }
  }
  return keys;
}

/** How many keys valid JSON text writes: strings followed by a colon. Jumps from quote to quote. */
function keysWritten(text: string): number {
  let keys = 0;
  for (let open = text.indexOf('"'); open !== -1;) {
    let close = open;
    for (;;) {
      close = text.indexOf('"', close + 1);
      if (close === -1) return -1;
      let slashes = 0;
      while (text.charCodeAt(close - 1 - slashes) === 0x5c) slashes++;
      if (slashes % 2 === 0) break;
    }
    let next = close + 1;
    while (isWhitespace(text.charCodeAt(next))) next++;
    if (text.charCodeAt(next) === 0x3a) keys++;
    open = text.indexOf('"', next);
  }
  return keys;
}

/** The reader proper: one pass in JS, which knows the path of whatever it refuses. */
function parseStrictly(text: string, maxDepth: number): StrictJsonResult {
  const r = new Reader(text);
  const stack: Frame[] = [];
  let root: unknown;
  try {
    // Each turn reads one value; an opening bracket pushes a frame instead of recursing.
    for (;;) {
      r.skipWhitespace();
      const c = r.text.charCodeAt(r.i);
      let value: unknown;
      let opened = false;
      if (c === 0x7b || c === 0x5b) {
        if (stack.length >= maxDepth) r.fail(`nesting is deeper than ${maxDepth} levels`, r.i, 'depth');
        const isObject = c === 0x7b;
        const frame: Frame = { container: isObject ? {} : [], keys: isObject ? new Set() : null, key: isObject ? null : 0 };
        value = frame.container;
        r.i++;
        r.skipWhitespace();
        const close = isObject ? 0x7d : 0x5d;
        if (r.text.charCodeAt(r.i) === close) r.i++;
        else {
          if (stack.length > 0) store(stack[stack.length - 1] as Frame, value);
          else root = value;
          stack.push(frame);
          opened = true;
          if (isObject) readKey(r, frame);
        }
      } else if (c === 0x22) value = r.readString();
      else if (c === 0x2d || isDigit(c)) value = r.readNumber();
      else if (c === 0x74) value = r.readWord('true', true);
      else if (c === 0x66) value = r.readWord('false', false);
      else if (c === 0x6e) value = r.readWord('null', null);
      else r.expected('a JSON value');
      if (opened) continue;
      if (stack.length === 0) {
        root = value;
        break;
      }
      store(stack[stack.length - 1] as Frame, value);
      // After a value: a comma (next member) or closing brackets, possibly several.
      if (closeOrNext(r, stack)) break;
    }
    r.skipWhitespace();
    if (r.i < r.text.length) r.fail(`unexpected ${describeChar(r.text, r.i)} after the end of the JSON value`);
    return { ok: true, value: root };
  } catch (error) {
    if (!(error instanceof StrictJsonError)) throw error;
    const path = pathOf(stack);
    return { ok: false, code: error.code, path, message: `${error.message} (${position(r.text, error.offset)})`, offset: error.offset };
  }
}

/** Reads `"key":` into the frame, refusing a key the object already has. */
function readKey(r: Reader, frame: Frame): void {
  frame.key = null;
  r.skipWhitespace();
  if (r.text.charCodeAt(r.i) !== 0x22) r.expected('a quoted key');
  const at = r.i;
  const key = r.readString();
  frame.key = key;
  const keys = frame.keys as Set<string>;
  if (keys.has(key)) r.fail(`the key ${JSON.stringify(key)} appears twice in the same object`, at, 'duplicate-key');
  keys.add(key);
  r.skipWhitespace();
  if (r.text.charCodeAt(r.i) !== 0x3a) r.expected('":" after a key');
  r.i++;
}

/** After a member: true when the outermost container closed (the document is complete). */
function closeOrNext(r: Reader, stack: Frame[]): boolean {
  for (;;) {
    const frame = stack[stack.length - 1] as Frame;
    const isObject = frame.keys !== null;
    r.skipWhitespace();
    const c = r.text.charCodeAt(r.i);
    if (c === 0x2c) {
      r.i++;
      if (isObject) readKey(r, frame);
      else frame.key = (frame.key as number) + 1;
      return false;
    }
    if (c !== (isObject ? 0x7d : 0x5d)) r.expected(isObject ? '"," or "}"' : '"," or "]"');
    r.i++;
    stack.pop();
    if (stack.length === 0) return true;
  }
}

/** `$.steps[0]["a b"]`: the path format chain problems use. */
export function formatJsonPath(path: JsonPath): string {
  let out = '$';
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
  return out;
}
