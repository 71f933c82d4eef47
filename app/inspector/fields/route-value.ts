/**
 * A router compares the label with each route's value as JSON, so `true`, `3` and `"true"`
 * are different routes. The routes table shows a value as a person would type it: strings as
 * they are, unless the text would read as another JSON value (then quoted), everything else as
 * JSON.
 */
export function routeValueText(value: unknown): string {
  if (typeof value !== 'string') return JSON.stringify(value) ?? '';
  return parsesAsOtherJson(value) ? JSON.stringify(value) : value;
}

/** The inverse of routeValueText: JSON literals (true, 3, null, "quoted") as JSON, anything else as a string. */
export function parseRouteValue(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === '') return '';
  try {
    const parsed: unknown = JSON.parse(trimmed);
    // Labels are scalars; an object or array typed here is meant as text.
    return parsed === null || typeof parsed !== 'object' ? parsed : text;
  } catch {
    return text;
  }
}

function parsesAsOtherJson(text: string): boolean {
  try {
    const parsed: unknown = JSON.parse(text.trim());
    return typeof parsed === 'string' || parsed === null || typeof parsed !== 'object';
  } catch {
    return false;
  }
}
