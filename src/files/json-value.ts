/**
 * Type guards for values read from JSON (files, traces, model output, step configs), so a
 * reader narrows once instead of casting at every property it reads.
 */

/** A plain JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An object or an array: anything whose own keys can be walked as a JSON container. */
export function isContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  return typeof value === 'object' && value !== null;
}

/** A property of a value that may not be an object: undefined unless it is an own property of a JSON container. */
export function propertyOf(value: unknown, key: string): unknown {
  return isContainer(value) && Object.hasOwn(value, key) ? Reflect.get(value, key) : undefined;
}

/** An object with no prototype, for keys read from a file ("__proto__" is then just a key). */
export function prototypeFreeRecord(): Record<string, unknown> {
  return Object.create(null);
}
