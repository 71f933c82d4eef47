import { isIdKey, snake } from './demo-roles.ts';
import { contentStems } from './demo-text.ts';

/**
 * Ids handed over in the prompt's JSON (an earlier step's output, a map unit, a typed
 * collection): grouped by where they sit, so a field such as `failed_unit_ids` can take the
 * ids under `failed_units[*].unit_id`, and a rewrite can find the text that belongs to an id.
 */

export interface IdGroup {
  /** Keys on the way to the ids, e.g. ["failed_units", "unit_id"]. */
  path: string[];
  ids: string[];
}

const textKey = /^(?:text|content|body|clause|clause_text|passage|excerpt)$/i;

function idValue(v: unknown): string | null {
  return typeof v === 'string' || typeof v === 'number' ? String(v) : null;
}

/** Every id group in the values: arrays of objects with an id-like key, and arrays of strings under an `…ids` key. */
export function idGroups(values: readonly unknown[]): IdGroup[] {
  const groups: IdGroup[] = [];
  const walk = (value: unknown, path: string[], depth: number) => {
    if (depth > 12 || !value || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      const key = path.at(-1) ?? '';
      if (/(^|_)ids$/.test(snake(key)) && value.every((v) => idValue(v) !== null)) {
        groups.push({ path, ids: value.map((v) => idValue(v) as string) });
        return;
      }
      const objects = value.filter((v): v is Record<string, unknown> => Boolean(v) && typeof v === 'object' && !Array.isArray(v));
      const keys = new Set(objects.flatMap((o) => Object.keys(o).filter((k) => isIdKey(k) && idValue(o[k]) !== null)));
      for (const k of keys) {
        const ids = objects.map((o) => idValue(o[k])).filter((v): v is string => v !== null);
        if (ids.length > 0) groups.push({ path: [...path, k], ids });
      }
      for (const item of value) walk(item, path, depth + 1);
      return;
    }
    for (const [k, v] of Object.entries(value)) walk(v, [...path, k], depth + 1);
  };
  for (const v of values) walk(v, [], 0);
  return groups;
}

/**
 * The group a field's ids should come from: the one whose path shares most words with the
 * field name (`failed_unit_ids` ↔ `failed_units.unit_id`), ties to the larger group.
 * Null when nothing in the prompt matches.
 */
export function idsForField(fieldName: string, groups: readonly IdGroup[]): string[] | null {
  const wanted = new Set(contentStems(snake(fieldName).replace(/_/g, ' ')).filter((s) => s !== 'id' && s !== 'ids'));
  let best: { score: number; ids: string[] } | null = null;
  for (const g of groups) {
    const words = contentStems(g.path.map(snake).join(' ').replace(/_/g, ' '));
    const score = words.filter((w) => wanted.has(w)).length;
    if (score === 0) continue;
    if (!best || score > best.score || (score === best.score && g.ids.length > best.ids.length)) best = { score, ids: g.ids };
  }
  return best ? [...new Set(best.ids)] : null;
}

/** The largest group: what "every id given" means when no name matches. */
export function largestGroup(groups: readonly IdGroup[]): string[] {
  return [...new Set(groups.reduce<string[]>((a, g) => (g.ids.length > a.length ? g.ids : a), []))];
}

/** id → the text handed over with it (`{ "id": "1.1", "text": "…" }`). */
export function textsById(values: readonly unknown[]): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (value: unknown, depth: number) => {
    if (depth > 12 || !value || typeof value !== 'object') return;
    if (Array.isArray(value)) return value.forEach((v) => walk(v, depth + 1));
    const entries = Object.entries(value);
    const id = entries.find(([k, v]) => isIdKey(k) && idValue(v) !== null);
    const text = entries.find(([k, v]) => textKey.test(k) && typeof v === 'string');
    if (id && text && !out.has(idValue(id[1]) as string)) out.set(idValue(id[1]) as string, text[1] as string);
    for (const [, v] of entries) walk(v, depth + 1);
    return undefined;
  };
  for (const v of values) walk(v, 0);
  return out;
}
