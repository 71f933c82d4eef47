import { prototypeFreeRecord } from '../../files/json-value.ts';

/** `prefix.N.rest` keys grouped by N in index order: one record of `rest` keys per N. */
export function indexed(attrs: Record<string, unknown>, prefix: string): Record<string, unknown>[] {
  const groups = new Map<number, Record<string, unknown>>();
  for (const [key, value] of Object.entries(attrs)) {
    if (!key.startsWith(prefix)) continue;
    const match = /^(\d{1,6})\.(.+)$/.exec(key.slice(prefix.length));
    if (!match) continue;
    const n = Number(match[1]);
    const group = groups.get(n) ?? prototypeFreeRecord();
    group[match[2] as string] = value;
    groups.set(n, group);
  }
  return [...groups.entries()].sort((a, b) => a[0] - b[0]).map(([, g]) => g);
}
