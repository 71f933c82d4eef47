/**
 * Lookups keyed by names from a chain file (input names, binding names, labels). On a plain
 * object `record[name]` finds `Object.prototype` members for `constructor`, `toString` or
 * `hasOwnProperty`, and `record[name] = value` with `__proto__` replaces the prototype instead
 * of storing a key. These two only ever see the record's own data.
 */

/** The record's own value for `key`, or undefined (never an inherited member). */
export function ownValue<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** Stores `value` under `key` as an own data property, whatever the key (`__proto__` included). */
export function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(record, key, { value, writable: true, enumerable: true, configurable: true });
}
