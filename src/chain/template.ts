/**
 * Prompt templates: `{name}` or `{name.path}` placeholders, rendered by replacement in a
 * single pass, never by a format function. Anything else in braces (JSON examples such as
 * `{"a": 1}` or `{ }`) is literal text, and a value that itself contains `{name}` is not
 * expanded again.
 */
export const PLACEHOLDER_PATTERN = /\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)\}/g;

export interface Placeholder {
  /** The full dotted name inside the braces. */
  name: string;
  /** The first segment: the binding it reads. */
  binding: string;
  path: string[];
  index: number;
}

export function findPlaceholders(template: string): Placeholder[] {
  const found: Placeholder[] = [];
  for (const match of template.matchAll(PLACEHOLDER_PATTERN)) {
    const name = match[1] ?? '';
    const [binding = '', ...path] = name.split('.');
    found.push({ name, binding, path, index: match.index ?? 0 });
  }
  return found;
}

/**
 * A template split once into the literal text around its placeholders: `literals` has one
 * more entry than `placeholders` (the text before each placeholder, then the tail). Shared by
 * every caller of the same template string, so it is frozen.
 */
export interface CompiledTemplate {
  readonly template: string;
  readonly placeholders: readonly Readonly<Placeholder & { path: readonly string[] }>[];
  readonly literals: readonly string[];
}

/**
 * Compiled templates by template string. Bounded (by count and by total length) because the
 * designer assembles prompts from templates as they are typed; the oldest entry goes first.
 */
const compiledTemplates = new Map<string, CompiledTemplate>();
const compiledLimit = { entries: 256, chars: 4_000_000 };
let compiledChars = 0;

/**
 * The placeholders and literal text of a template, computed once per distinct template string
 * (what `findPlaceholders` finds, and the text between the matches).
 */
export function compileTemplate(template: string): CompiledTemplate {
  const cached = compiledTemplates.get(template);
  if (cached) return cached;
  const placeholders = findPlaceholders(template);
  const literals: string[] = [];
  let last = 0;
  for (const p of placeholders) {
    literals.push(template.slice(last, p.index));
    last = p.index + p.name.length + 2;
    Object.freeze(p.path);
    Object.freeze(p);
  }
  literals.push(template.slice(last));
  const compiled: CompiledTemplate = Object.freeze({ template, placeholders: Object.freeze(placeholders), literals: Object.freeze(literals) });
  if (template.length <= compiledLimit.chars) {
    while (compiledTemplates.size > 0 && (compiledTemplates.size >= compiledLimit.entries || compiledChars + template.length > compiledLimit.chars)) {
      const oldest = compiledTemplates.keys().next().value as string;
      compiledTemplates.delete(oldest);
      compiledChars -= oldest.length;
    }
    compiledTemplates.set(template, compiled);
    compiledChars += template.length;
  }
  return compiled;
}

/** Renders a value for a prompt: strings as they are, anything else as pretty JSON. */
export function stringifyForPrompt(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return JSON.stringify(value, null, 2);
}

/**
 * Replaces each placeholder with `lookup(placeholder)`. Returns the text and the
 * placeholders that had no value, so the caller decides whether that is an error.
 */
export function renderTemplate(template: string, lookup: (p: Placeholder) => string | undefined): { text: string; missing: string[] } {
  const missing: string[] = [];
  const text = template.replace(PLACEHOLDER_PATTERN, (whole, name: string, index: number) => {
    const [binding = '', ...path] = name.split('.');
    const value = lookup({ name, binding, path, index });
    if (value === undefined) {
      missing.push(name);
      return whole;
    }
    return value;
  });
  return { text, missing };
}

/**
 * The template with every placeholder that reads the binding `from` reading `to` instead
 * (`{from}` → `{to}`, `{from.a.b}` → `{to.a.b}`); other text, JSON braces included, untouched.
 */
export function renamePlaceholders(template: string, from: string, to: string): string {
  return template.replace(PLACEHOLDER_PATTERN, (whole: string, name: string) => {
    const [binding, ...path] = name.split('.');
    return binding === from ? `{${[to, ...path].join('.')}}` : whole;
  });
}
