import { getPath } from '../chain/refs.ts';

/**
 * Selects values with a small path language: dotted keys and `[*]` for every array item,
 * e.g. `relevant_sections[*].quote`. Deliberately not JSONPath: nothing here is evaluated.
 */
export function selectAll(value: unknown, path: string): unknown[] {
  const segments = path.split('.').filter(Boolean);
  let current: unknown[] = [value];
  for (const segment of segments) {
    const star = segment.endsWith('[*]');
    const key = star ? segment.slice(0, -3) : segment;
    const next: unknown[] = [];
    for (const item of current) {
      const child = key ? getPath(item, [key]) : item;
      if (star) {
        if (Array.isArray(child)) next.push(...child);
      } else if (child !== undefined) next.push(child);
    }
    current = next;
  }
  return current;
}
