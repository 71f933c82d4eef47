/**
 * Stable content hashes for chain revisions and per-step config hashes. Keys are sorted so
 * the same content always hashes the same, in Node and in the browser, synchronously.
 * Not cryptographic: it identifies versions, it does not protect anything.
 */
export function stableStringify(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  // Built by concatenation rather than entries, filter, sort and map: the collector hashes every
  // imported step's config and every chain, and the intermediate arrays were most of its cost.
  // The text is the same as before, so every hash stays the same.
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += `${i > 0 ? ',' : ''}${i in value ? stableStringify(value[i]) : ''}`;
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  // Default sort is by UTF-16 code units, the order `<` gives strings.
  const keys = Object.keys(record).sort();
  let out = '{';
  let first = true;
  for (const key of keys) {
    const item = record[key];
    if (item === undefined) continue;
    out += `${first ? '' : ','}${JSON.stringify(key)}:${stableStringify(item)}`;
    first = false;
  }
  return `${out}}`;
}

/** cyrb53-style 53-bit hash of a string, as 14 hex digits. */
export function hashString(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0');
}

export function hashValue(value: unknown): string {
  return hashString(stableStringify(value));
}
