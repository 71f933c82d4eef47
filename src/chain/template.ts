/**
 * Prompt templates: `{name}` or `{name.path}` placeholders, rendered by replacement in a
 * single pass, never by a format function. Anything else in braces (JSON examples such as
 * `{"a": 1}` or `{ }`) is literal text, and a value that itself contains `{name}` is not
 * expanded again.
 */
const placeholderPattern = /\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)\}/g;

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
  for (const match of template.matchAll(placeholderPattern)) {
    const name = match[1] ?? '';
    const [binding = '', ...path] = name.split('.');
    found.push({ name, binding, path, index: match.index ?? 0 });
  }
  return found;
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
  const text = template.replace(placeholderPattern, (whole, name: string, index: number) => {
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
