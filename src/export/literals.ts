/**
 * Literal helpers for generated code. Every string is encoded by walking its UTF-16 code
 * units (lone surrogates survive as escapes, pairs stay as the character they make), never by
 * regex replacement over text that is already code. Characters a reader cannot see or that
 * turn text around (line and paragraph separators, bidi controls, zero-width marks, C0/C1
 * controls) are always escaped, even where the language would accept them raw.
 */

const isHigh = (u: number) => u >= 0xd800 && u <= 0xdbff;
const isLow = (u: number) => u >= 0xdc00 && u <= 0xdfff;

/** Invisible or direction-changing characters (Trojan Source) and line/paragraph separators. */
export function isInvisible(cp: number): boolean {
  return (
    cp === 0x00ad || cp === 0x061c || cp === 0x180e || cp === 0x2028 || cp === 0x2029 || cp === 0xfeff ||
    (cp >= 0x200b && cp <= 0x200f) || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2060 && cp <= 0x2069) ||
    (cp >= 0xfff9 && cp <= 0xfffb)
  );
}

const isControl = (cp: number) => cp < 0x20 || (cp >= 0x7f && cp <= 0x9f);

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');

/** One code point or a lone surrogate, as the walk meets them. */
interface Piece {
  /** The code point, or the surrogate's own value when it is alone. */
  cp: number;
  lone: boolean;
  text: string;
}

function* pieces(s: string): Generator<Piece> {
  for (let i = 0; i < s.length; i++) {
    const u = s.charCodeAt(i);
    if (isHigh(u) && i + 1 < s.length && isLow(s.charCodeAt(i + 1))) {
      const low = s.charCodeAt(i + 1);
      yield { cp: (u - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000, lone: false, text: s.slice(i, i + 2) };
      i++;
    } else {
      yield { cp: u, lone: isHigh(u) || isLow(u), text: s[i] as string };
    }
  }
}

/** A TypeScript/JavaScript single-quoted string literal. */
export function tsString(s: string): string {
  let out = "'";
  for (const p of pieces(s)) {
    if (p.cp === 0x27) out += "\\'";
    else if (p.cp === 0x5c) out += '\\\\';
    else if (p.cp === 0x0a) out += '\\n';
    else if (p.cp === 0x0d) out += '\\r';
    else if (p.cp === 0x09) out += '\\t';
    // \x00 rather than \0: "\0" followed by a digit would be a (forbidden) octal escape.
    else if (isControl(p.cp)) out += `\\x${hex(p.cp, 2)}`;
    else if (p.lone || isInvisible(p.cp)) out += `\\u${hex(p.cp, 4)}`;
    else out += p.text;
  }
  return `${out}'`;
}

/** A Python double-quoted `str` literal; a lone surrogate becomes `\udXXX`, which a Python str holds. */
export function pyString(s: string): string {
  let out = '"';
  for (const p of pieces(s)) {
    if (p.cp === 0x22) out += '\\"';
    else if (p.cp === 0x5c) out += '\\\\';
    else if (p.cp === 0x0a) out += '\\n';
    else if (p.cp === 0x0d) out += '\\r';
    else if (p.cp === 0x09) out += '\\t';
    // NUL must never reach Python source raw: "source code cannot contain null bytes".
    else if (isControl(p.cp)) out += `\\x${hex(p.cp, 2)}`;
    else if (p.lone || isInvisible(p.cp)) out += `\\u${hex(p.cp, 4)}`;
    else out += p.text;
  }
  return `${out}"`;
}

/** A JSON string with the same extra escapes: parses back to exactly `s`. */
export function jsonString(s: string): string {
  let out = '"';
  for (const p of pieces(s)) {
    if (p.cp === 0x22) out += '\\"';
    else if (p.cp === 0x5c) out += '\\\\';
    else if (p.cp === 0x0a) out += '\\n';
    else if (p.cp === 0x0d) out += '\\r';
    else if (p.cp === 0x09) out += '\\t';
    else if (isControl(p.cp) || p.lone || isInvisible(p.cp)) out += `\\u${hex(p.cp, 4)}`;
    else out += p.text;
  }
  return `${out}"`;
}

/** Text safe inside a one-line comment (`//` or `#`) or a JSDoc block: readable, never code. */
export function commentText(s: string): string {
  let out = '';
  for (const p of pieces(s)) {
    if (p.cp === 0x0a) out += '\\n';
    else if (p.cp === 0x0d) out += '\\r';
    else if (p.cp === 0x09) out += ' ';
    else if (isControl(p.cp) || p.lone || isInvisible(p.cp)) out += `\\u${hex(p.cp, 4)}`;
    // `*/` would close a JSDoc block; `*\/` reads the same.
    else if (p.cp === 0x2f && out.endsWith('*')) out += '\\/';
    else out += p.text;
  }
  return out;
}

/** A JSON number as JavaScript prints it; JSON has no NaN or Infinity, so neither has a chain. */
function numberText(n: number): string {
  if (!Number.isFinite(n)) throw new Error(`cannot emit the number ${n}: chain values are JSON`);
  return String(n);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * JSON text like `JSON.stringify(value, null, indent)` (same layout, same key order, undefined
 * dropped), with strings from `jsonString`. The text is also a valid TypeScript expression
 * with the same value, so it doubles as the TypeScript literal of a chain value.
 */
export function safeJson(value: unknown, indent = 2, depth = 0): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return jsonString(value);
  if (typeof value === 'number') return numberText(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const pad = indent > 0 ? `\n${' '.repeat(indent * (depth + 1))}` : '';
  const end = indent > 0 ? `\n${' '.repeat(indent * depth)}` : '';
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[${value.map((v) => `${pad}${v === undefined ? 'null' : safeJson(v, indent, depth + 1)}`).join(',')}${end}]`;
  }
  if (isPlainObject(value)) {
    const keys = Object.keys(value).filter((k) => value[k] !== undefined);
    if (keys.length === 0) return '{}';
    // In a JavaScript object literal "__proto__" would set the prototype instead of a key.
    if (keys.includes('__proto__')) throw new Error('cannot emit the key "__proto__"');
    const sep = indent > 0 ? ': ' : ':';
    return `{${keys.map((k) => `${pad}${jsonString(k)}${sep}${safeJson(value[k], indent, depth + 1)}`).join(',')}${end}}`;
  }
  throw new Error(`cannot emit a ${typeof value}: chain values are JSON`);
}

/** A Python literal of a JSON value, walked by type: True/False/None, never text replacement. */
export function pyLiteral(value: unknown, indent = 4, depth = 0): string {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'string') return pyString(value);
  if (typeof value === 'number') return numberText(value);
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  const pad = `\n${' '.repeat(indent * (depth + 1))}`;
  const end = `\n${' '.repeat(indent * depth)}`;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[${value.map((v) => `${pad}${pyLiteral(v, indent, depth + 1)},`).join('')}${end}]`;
  }
  if (isPlainObject(value)) {
    const keys = Object.keys(value).filter((k) => value[k] !== undefined);
    if (keys.length === 0) return '{}';
    return `{${keys.map((k) => `${pad}${pyString(k)}: ${pyLiteral(value[k], indent, depth + 1)},`).join('')}${end}}`;
  }
  throw new Error(`cannot emit a ${typeof value}: chain values are JSON`);
}

/**
 * Splits a long multi-line text after each newline, so a prompt reads line by line in the
 * generated code (`'a\n' + 'b'` / `("a\n" "b")`). Never splits a surrogate pair.
 */
export function textLines(s: string): string[] {
  const lines: string[] = [];
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) === 0x0a) {
      lines.push(s.slice(start, i + 1));
      start = i + 1;
    }
  }
  if (start < s.length || lines.length === 0) lines.push(s.slice(start));
  return lines;
}

const SIMPLE_KEY = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** An object key in TypeScript: bare when it is a plain identifier, quoted otherwise. */
export function tsKey(key: string): string {
  if (key === '__proto__') throw new Error('cannot emit the key "__proto__"');
  return SIMPLE_KEY.test(key) ? key : tsString(key);
}

/**
 * A property name in a TypeScript type literal. Unlike an object literal, a type has no
 * prototype to set, so `"__proto__"` is an ordinary (quoted) member name there.
 */
export function tsTypeKey(key: string): string {
  return key === '__proto__' ? tsString(key) : tsKey(key);
}

const INLINE_WIDTH = 100;

/**
 * A TypeScript literal of a JSON value, in the project's style (single quotes, bare keys,
 * short objects on one line). Walked by type; strings through `tsString`.
 */
export function tsLiteral(value: unknown, indent = 2, depth = 0): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return tsString(value);
  if (typeof value === 'number') return numberText(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const items: string[] = Array.isArray(value)
    ? value.map((v) => tsLiteral(v, indent, depth + 1))
    : isPlainObject(value)
      ? Object.keys(value).filter((k) => value[k] !== undefined).map((k) => `${tsKey(k)}: ${tsLiteral(value[k], indent, depth + 1)}`)
      : (() => {
          throw new Error(`cannot emit a ${typeof value}: chain values are JSON`);
        })();
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  if (items.length === 0) return `${open}${close}`;
  const inline = Array.isArray(value) ? `[${items.join(', ')}]` : `{ ${items.join(', ')} }`;
  if (!inline.includes('\n') && inline.length + indent * depth <= INLINE_WIDTH) return inline;
  const pad = ' '.repeat(indent * (depth + 1));
  return `${open}\n${items.map((i) => `${pad}${i},`).join('\n')}\n${' '.repeat(indent * depth)}${close}`;
}

/** A Python literal like `pyLiteral`, with short containers on one line. */
export function pyInline(value: unknown, indent = 4, depth = 0): string {
  if (value === null || value === undefined || typeof value !== 'object') return pyLiteral(value, indent, depth);
  const items: string[] = Array.isArray(value)
    ? value.map((v) => pyInline(v, indent, depth + 1))
    : Object.keys(value as Record<string, unknown>).filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${pyString(k)}: ${pyInline((value as Record<string, unknown>)[k], indent, depth + 1)}`);
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  if (items.length === 0) return `${open}${close}`;
  const inline = `${open}${items.join(', ')}${close}`;
  if (!inline.includes('\n') && inline.length + indent * depth <= INLINE_WIDTH) return inline;
  const pad = ' '.repeat(indent * (depth + 1));
  return `${open}\n${items.map((i) => `${pad}${i},`).join('\n')}\n${' '.repeat(indent * depth)}${close}`;
}
