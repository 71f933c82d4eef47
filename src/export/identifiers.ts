/**
 * Identifiers for generated code. Names from a chain (step ids, input names) become ASCII
 * identifiers in the target language's style; a scope hands each out once, so two names that
 * fold to the same identifier (`fooBar`, `foo_bar`) or a keyword (`class`, `None`) never
 * collide: the later one is numbered. Validity is checked separately from literal encoding.
 */
export type Lang = 'ts' | 'py';

const TS_KEYWORDS = [
  'break', 'case', 'catch', 'class', 'const', 'continue', 'debugger', 'default', 'delete', 'do', 'else', 'enum', 'export', 'extends',
  'false', 'finally', 'for', 'function', 'if', 'import', 'in', 'instanceof', 'new', 'null', 'return', 'super', 'switch', 'this',
  'throw', 'true', 'try', 'typeof', 'var', 'void', 'while', 'with', 'as', 'implements', 'interface', 'let', 'package', 'private',
  'protected', 'public', 'static', 'yield', 'any', 'boolean', 'constructor', 'declare', 'get', 'module', 'require', 'number', 'set',
  'string', 'symbol', 'type', 'from', 'of', 'async', 'await', 'namespace', 'keyof', 'readonly', 'unique', 'unknown', 'never',
  'object', 'bigint', 'undefined', 'infer', 'is', 'asserts', 'global', 'satisfies', 'accessor', 'out', 'override', 'abstract',
  'arguments', 'eval', 'NaN', 'Infinity', 'globalThis', 'Object', 'Array', 'String', 'Number', 'Boolean', 'Symbol', 'Promise',
  'JSON', 'Math', 'Error', 'Map', 'Set', 'Date', 'RegExp', 'Function', 'process', 'console', 'window', 'document', 'fetch',
  'require', 'exports', 'self', 'crypto', 'structuredClone', 'setTimeout', 'clearTimeout', 'URL', 'Response', 'Request',
];

const PY_KEYWORDS = [
  'False', 'None', 'True', 'and', 'as', 'assert', 'async', 'await', 'break', 'class', 'continue', 'def', 'del', 'elif', 'else',
  'except', 'finally', 'for', 'from', 'global', 'if', 'import', 'in', 'is', 'lambda', 'nonlocal', 'not', 'or', 'pass', 'raise',
  'return', 'try', 'while', 'with', 'yield', 'match', 'case', 'type', '_', '__debug__', 'print', 'len', 'list', 'dict', 'str',
  'int', 'float', 'bool', 'set', 'tuple', 'object', 'id', 'input', 'open', 'range', 'map', 'filter', 'sum', 'min', 'max', 'any',
  'all', 'iter', 'next', 'hash', 'format', 'vars', 'dir', 'exec', 'eval', 'compile', 'globals', 'locals', 'super', 'property',
  'staticmethod', 'classmethod', 'json', 'sys', 'os', 'Any', 'TypedDict', 'annotations', 'Exception', 'BaseException',
  'NotImplemented', 'Ellipsis', 'self', 'cls', 'bytes', 'slice', 'zip', 'sorted', 'reversed', 'enumerate', 'abs', 'round',
  'getattr', 'setattr', 'hasattr', 'isinstance', 'issubclass', 'callable', 'repr', 'type', 'memoryview', 'bytearray', 'complex',
  'frozenset', 'ord', 'chr', 'divmod', 'pow', 'help', 'quit', 'exit', 'copyright', 'credits', 'license', 'breakpoint', 'ascii',
  'bin', 'oct', 'hex', 'delattr', '__name__', '__file__', '__doc__', '__builtins__', '__spec__', '__loader__', '__package__',
];

const RESERVED: Record<Lang, ReadonlySet<string>> = { ts: new Set(TS_KEYWORDS), py: new Set(PY_KEYWORDS) };

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** True when `name` is a valid, non-reserved identifier in `lang`. */
export function isSafeIdentifier(name: string, lang: Lang): boolean {
  return IDENTIFIER.test(name) && !RESERVED[lang].has(name);
}

/**
 * The words of a name: split at anything that is not an ASCII letter or digit and at
 * lower→upper and letter↔digit boundaries (`quotesCheck2` → quotes, check, 2).
 */
export function nameWords(name: string): string[] {
  const words: string[] = [];
  let current = '';
  let previous = '';
  for (const ch of name) {
    const alnum = /^[A-Za-z0-9]$/.test(ch);
    if (!alnum) {
      if (current) words.push(current);
      current = '';
      previous = '';
      continue;
    }
    const boundary = current !== '' && ((/[a-z]/.test(previous) && /[A-Z]/.test(ch)) || (/[0-9]/.test(previous) !== /[0-9]/.test(ch)));
    if (boundary) {
      words.push(current);
      current = '';
    }
    current += ch;
    previous = ch;
  }
  if (current) words.push(current);
  return words;
}

const capital = (w: string) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase();

export function camelCase(name: string): string {
  const words = nameWords(name);
  return words.map((w, i) => (i === 0 ? w.toLowerCase() : capital(w))).join('');
}

export function pascalCase(name: string): string {
  return nameWords(name).map(capital).join('');
}

export function snakeCase(name: string): string {
  return nameWords(name).map((w) => w.toLowerCase()).join('_');
}

export function upperSnakeCase(name: string): string {
  return nameWords(name).map((w) => w.toUpperCase()).join('_');
}

export interface NameScope {
  readonly lang: Lang;
  /** Returns a valid identifier close to `candidate`, unique in this scope. */
  claim(candidate: string, fallback?: string): string;
  has(name: string): boolean;
}

/**
 * A scope of identifiers. `reserved` adds names the generated file already uses (`rt`,
 * `run`, `CHAIN`…). A candidate that is empty, starts with a digit, is reserved or is taken
 * gets a prefix or a number, so the result is always valid and never collides.
 */
export function createNameScope(lang: Lang, reserved: Iterable<string> = []): NameScope {
  const taken = new Set<string>(reserved);
  return {
    lang,
    has: (name) => taken.has(name),
    claim(candidate, fallback = 'value') {
      let base = candidate.replace(/[^A-Za-z0-9_]/g, '');
      if (!base) base = fallback;
      if (/^[0-9]/.test(base)) base = `_${base}`;
      let name = base;
      for (let n = 2; taken.has(name) || !isSafeIdentifier(name, lang); n++) name = `${base}${/[0-9]$/.test(base) ? '_' : ''}${n}`;
      taken.add(name);
      return name;
    },
  };
}
