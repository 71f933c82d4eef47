/**
 * Keys never reach a record. An endpoint may echo the key it was sent (in an error message,
 * a body, a header): whatever a provider hands back is scrubbed here before it becomes a trace
 * event, a run file, an OTLP span, a toast or a CLI line. One place, so every path scrubs alike.
 *
 * Two things are removed: the configured keys themselves (wherever they appear), and the shapes
 * keys come in (`Bearer …`, `sk-…`, `sk-ant-…`, `x-api-key: …`), which also catch a key that
 * is not the configured one (a proxy's, a colleague's pasted into an error).
 */
export const REDACTED = '[redacted]';

export interface Scrubber {
  /** The string with every configured key and every key shape replaced by `[redacted]`. */
  text(value: string): string;
  /** The same over every string (and object key) in a JSON-like value; the value itself when nothing changed. */
  value<T>(value: T): T;
  /** Only the configured keys, never the shapes: for what must stay as sent (prompts, inputs). */
  readonly keysOnly: Scrubber;
  /**
   * `value`, and the result (an object or array) is remembered as scrubbed: met again inside a
   * record given to `value` (or to `keysOnly.value` after the full scrubber sealed it), it is
   * passed through without a second walk. Only for what is never changed afterwards: a
   * provider's answer as recorded, which every trace event of its attempt carries again.
   */
  sealed?<T>(value: T): T;
  /**
   * Seals `value`, the parse of the JSON `text`, without walking it, when the text itself shows
   * that no string in it (no value, no object key) can hold a key or a key shape; says whether it
   * did. When it cannot tell, nothing happens and `sealed` walks the value as before. For a
   * provider's answer body, read once as text anyway: its walk was most of a call's scrub.
   */
  sealJsonText?(text: string, value: object): boolean;
}

// Each is linear: a literal start, then one character class with no nested repetition.
export const KEY_SHAPES: readonly [RegExp, string][] = [
  [/\b(Bearer|Basic|Token)(\s+)[A-Za-z0-9._~+/=-]{4,}/gi, `$1$2${REDACTED}`],
  [/\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{6,}/g, REDACTED],
  [/\b((?:x-)?api[-_]?key|x-goog-api-key|authorization)(["']?[ \t]{0,8}[:=][ \t]{0,8}["']?)[^\s"',;}&]{4,}/gi, `$1$2${REDACTED}`],
];

/**
 * Every match of a key shape contains one of these words (keep the two in step): a text with
 * none of them is left as it is after one scan, instead of three replacing ones.
 */
export const SHAPE_HINT = /bearer|basic|token|sk-|api|authorization/i;

/**
 * Any key shape at all, in one scan (the shapes' own flags loosened to case-insensitive, so it
 * may say yes where no shape replaces anything, never no where one would). A text that names a
 * hint word without holding a key (`prompt_tokens` in every usage object) is then left after this
 * one test instead of three replacing scans.
 */
export const ANY_SHAPE = new RegExp(KEY_SHAPES.map(([re]) => `(?:${re.source})`).join('|'), 'i');

/**
 * Read off a JSON text, what may become a key shape in a string of its parse. Without a `\u`
 * escape in the text (checked first), every character of a parsed string is a character of the
 * text or comes from an escape that yields `"`, `\`, `/` or a control character, none of them a
 * letter, a digit or `-`: so the letters of a hint word stand together in the text as in the
 * string, and the whitespace after `Bearer`, `Basic` or `Token` is whitespace or a backslash
 * there. Looser than ANY_SHAPE (no word boundaries, no key after the word): it may say yes for
 * nothing, never no for a shape.
 */
const JSON_TEXT_SHAPE = /(?:bearer|basic|token)(?:\s|\\)|sk-|api[-_]?key|authorization/i;
/** Whether a key holds a character an escape in a JSON text can make (`"`, `\\`, `/`, a control character): such keys are not looked for in the text. */
function escapeMade(key: string): boolean {
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || c === 0x2f) return true;
  }
  return false;
}

/**
 * Whether a JSON text proves its parse holds no key (the literals given) and, with `shapes`, no
 * key shape, nested no deeper than the walk goes (past MAX_DEPTH the walk replaces a value whole).
 */
export function jsonTextIsClean(text: string, keys: readonly string[], shapes: boolean): boolean {
  if (text.includes('\\u')) return false;
  if (shapes && JSON_TEXT_SHAPE.test(text)) return false;
  for (const key of keys) if (escapeMade(key) || text.includes(key)) return false;
  // Every level of nesting opens with a bracket; brackets inside strings only count too many.
  // Counted by indexOf, not character by character: an answer holds a few brackets in hundreds
  // of characters, and this runs on every call, before the engine's code is optimised too.
  if (text.length <= MAX_DEPTH) return true;
  let open = 0;
  for (const bracket of ['{', '[']) {
    for (let i = text.indexOf(bracket); i !== -1; i = text.indexOf(bracket, i + 1)) if (++open > MAX_DEPTH) return false;
  }
  return true;
}

/** The fewest characters a key shape matches (`sk-` and six more); keep it in step with KEY_SHAPES. */
export const SHORTEST_SHAPE = 9;

/** Keys shorter than this are not scrubbed literally: replacing "abc" everywhere would wreck the record. */
export const MIN_KEY_LENGTH = 6;
/** JSON values nest; a hostile one could nest deeper than the stack. Past this depth a value is replaced whole. */
export const MAX_DEPTH = 200;

function literals(keys: readonly (string | undefined | null)[]): string[] {
  const out = new Set<string>();
  for (const key of keys) {
    const k = key?.trim();
    if (!k || k.length < MIN_KEY_LENGTH) continue;
    out.add(k);
    // The same key as it would appear in a URL or a form body.
    out.add(encodeURIComponent(k));
  }
  // Longest first, so a key that contains another is removed whole.
  return [...out].sort((a, b) => b.length - a.length);
}

/** Objects a scrubber has sealed (see Scrubber.sealed): already scrubbed, never changed since. */
type Sealed = (value: object) => boolean;
const NONE_SEALED: Sealed = () => false;

function walk(value: unknown, text: (s: string) => string, depth: number, sealed: Sealed): unknown {
  if (typeof value === 'string') return text(value);
  if (value === null || typeof value !== 'object') return value;
  if (sealed(value)) return value;
  if (depth > MAX_DEPTH) return REDACTED;
  // Every run scrubs every record it writes, so this walk is on the engine's path for each
  // call: nothing is allocated until something changes (most records hold no key).
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const next = walk(item, text, depth + 1, sealed);
      if (!out && next !== item) out = value.slice(0, i);
      if (out) out.push(next);
    }
    return out ?? value;
  }
  // Own enumerable string keys in order, as Object.entries lists them. The copy is made only
  // once something changes: the entries before the first change are copied then, as they were.
  const record = value as Record<string, unknown>;
  let out: Record<string, unknown> | null = null;
  const keys = Object.keys(record);
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k] as string;
    const item = record[key];
    const nextKey = text(key);
    const next = walk(item, text, depth + 1, sealed);
    if (!out && (next !== item || nextKey !== key)) {
      out = {};
      for (let b = 0; b < k; b++) defineOwn(out, keys[b] as string, record[keys[b] as string]);
    }
    if (out) defineOwn(out, nextKey, next);
  }
  return out ?? value;
}

/** defineProperty keeps a key named "__proto__" an own property instead of a prototype swap. */
function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}


/**
 * `seals`: where this scrubber remembers what it sealed; `skips`: what its walk passes through
 * (its own seals, and for the keys-only scrubber also the full scrubber's: no key survives those).
 */
function build(keys: readonly string[], shapes: boolean, seals: WeakSet<object>, skips: Sealed): Omit<Scrubber, 'keysOnly'> {
  // A string shorter than every key and every key shape (most object keys and enum values in a
  // record) has nothing to scrub.
  const shortest = Math.min(shapes ? SHORTEST_SHAPE : Infinity, ...keys.map((k) => k.length));
  const text = (value: string): string => {
    if (value.length < shortest) return value;
    let out = value;
    for (const key of keys) if (out.includes(key)) out = out.split(key).join(REDACTED);
    if (shapes && SHAPE_HINT.test(out) && ANY_SHAPE.test(out)) for (const [re, replacement] of KEY_SHAPES) out = out.replace(re, replacement);
    return out;
  };
  const identity = !shapes && keys.length === 0;
  const value = <T>(v: T): T => (identity ? v : (walk(v, text, 0, skips) as T));
  return {
    text: identity ? (v) => v : text,
    value,
    sealed: <T>(v: T): T => {
      const out = value(v);
      if (!identity && typeof out === 'object' && out !== null) seals.add(out);
      return out;
    },
    sealJsonText: (text, v) => {
      if (identity || !jsonTextIsClean(text, keys, shapes)) return false;
      seals.add(v);
      return true;
    },
  };
}

/**
 * A scrubber for the given keys (an undefined or too-short key is ignored).
 *
 * @example
 * const scrub = createScrubber([apiKey]);
 * record.errors = [scrub.text(error.message)];
 */
export function createScrubber(keys: readonly (string | undefined | null)[] = []): Scrubber {
  const known = literals(keys);
  const full = new WeakSet<object>();
  const own = new WeakSet<object>();
  const keysOnly = { ...build(known, false, own, known.length ? (v) => own.has(v) || full.has(v) : NONE_SEALED) } as Scrubber;
  Object.defineProperty(keysOnly, 'keysOnly', { value: keysOnly });
  return { ...build(known, true, full, (v) => full.has(v)), keysOnly };
}

/** Only the key shapes: for results of a provider that holds no key (a webhook, the demo model). */
export const shapeScrubber: Scrubber = createScrubber();

/** Applies several scrubbers in turn (a run with several endpoints, each with its own key). */
export function combineScrubbers(scrubbers: readonly Scrubber[]): Scrubber {
  if (scrubbers.length === 1) return scrubbers[0] as Scrubber;
  let keysOnly: Scrubber | null = null;
  return {
    text: (v) => scrubbers.reduce((acc, s) => s.text(acc), v),
    value: <T>(v: T): T => scrubbers.reduce((acc, s) => s.value(acc), v),
    // Sealed by each: every one of them passes it through later.
    sealed: <T>(v: T): T => scrubbers.reduce((acc, s) => (s.sealed ? s.sealed(acc) : s.value(acc)), v),
    // Built when first asked for: building it eagerly would recurse (its own keysOnly is itself).
    get keysOnly() {
      return (keysOnly ??= scrubbers.length ? combineScrubbers(scrubbers.map((s) => s.keysOnly)) : this);
    },
  };
}
