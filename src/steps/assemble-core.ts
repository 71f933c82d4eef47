import { getPath } from '../chain/refs.ts';
import { isRecord, propertyOf } from '../files/json-value.ts';
import type { AssembleConfig } from './assemble.ts';

/**
 * The assembly itself, apart from the step definition so the registry (in the app's first
 * load) does not carry it: the merge in unit order, the placeholders, the replacement rule.
 * The assemble step, the partial-delivery fold and the CLI's progress lines all call this.
 */

export interface AssemblyGroup {
  group_key: string;
  unit_ids: string[];
  status: 'ok' | 'replaced' | 'missing';
}

export interface AssembledClause {
  id: string;
  group_key: string;
  source: string;
  rewrite: string;
}

export interface Assembly {
  document: string;
  clauses: AssembledClause[];
  groups: AssemblyGroup[];
  group_count: number;
  assembled_count: number;
  complete: boolean;
  missing_groups: string[];
  replaced_groups: string[];
}

interface SourceGroup {
  group_key: string;
  unit_ids: string[];
  units: { id: string; text: string }[];
}

/** The split's groups, from its output or from the groups array itself. */
export function sourceGroupsOf(value: unknown): SourceGroup[] | null {
  const list = Array.isArray(value) ? value : propertyOf(value, 'groups');
  if (!Array.isArray(list)) return null;
  const groups: SourceGroup[] = [];
  for (const g of list) {
    if (!isRecord(g) || typeof g.group_key !== 'string' || !Array.isArray(g.unit_ids)) return null;
    const units = Array.isArray(g.units) ? g.units.filter(isRecord).map((u) => ({ id: String(u.id), text: typeof u.text === 'string' ? u.text : '' })) : [];
    groups.push({ group_key: g.group_key, unit_ids: g.unit_ids.map(String), units });
  }
  return groups;
}

/** A map's ok results by unit id (its output, or a plain list of `{unit_id, status, output}`). */
export function okOutputsOf(value: unknown): Map<string, unknown> {
  const list = Array.isArray(value) ? value : propertyOf(value, 'results');
  const out = new Map<string, unknown>();
  if (!Array.isArray(list)) return out;
  for (const r of list) if (isRecord(r) && r.status === 'ok' && r.unit_id !== undefined) out.set(String(r.unit_id), r.output);
  return out;
}

/** The group's rewrites by unit id, when its output lists exactly the group's ids (each once); else null. */
function rewritesFor(group: SourceGroup, output: unknown, cfg: Pick<AssembleConfig, 'itemsPath' | 'idField' | 'textField'>): Map<string, string> | null {
  const items = getPath(output, cfg.itemsPath.split('.'));
  if (!Array.isArray(items) || items.length !== group.unit_ids.length) return null;
  const byId = new Map<string, string>();
  for (const item of items) {
    const id = propertyOf(item, cfg.idField);
    const text = propertyOf(item, cfg.textField);
    if (id === undefined || typeof text !== 'string' || byId.has(String(id))) return null;
    byId.set(String(id), text);
  }
  return group.unit_ids.every((id) => byId.has(id)) ? byId : null;
}

/** "clauses 4.1–5.2" (or "clause 4.1"): how a placeholder names what it stands for. */
export function unitRange(ids: readonly string[]): string {
  if (ids.length === 0) return 'no clauses';
  return ids.length === 1 ? `clause ${ids[0]}` : `clauses ${ids[0]}–${ids[ids.length - 1]}`;
}

/**
 * The document from the groups in unit order: each group's rewrite (its replacement when one
 * returned exactly its ids), or a placeholder naming the group and its clauses.
 *
 * @example
 * const a = assembleGroups(split.groups, okOutputsOf(rewrite), new Map(), { itemsPath: 'clauses', idField: 'id', textField: 'rewrite' });
 * a.complete; a.document; a.missing_groups;
 */
export function assembleGroups(
  groups: readonly SourceGroup[],
  results: ReadonlyMap<string, unknown>,
  replacements: ReadonlyMap<string, unknown>,
  cfg: Pick<AssembleConfig, 'itemsPath' | 'idField' | 'textField'>,
): Assembly {
  const parts: string[] = [];
  const clauses: AssembledClause[] = [];
  const out: AssemblyGroup[] = [];
  groups.forEach((group, i) => {
    const replaced = replacements.has(group.group_key) ? rewritesFor(group, replacements.get(group.group_key), cfg) : null;
    const rewrites = replaced ?? (results.has(group.group_key) ? rewritesFor(group, results.get(group.group_key), cfg) : null);
    out.push({ group_key: group.group_key, unit_ids: group.unit_ids, status: replaced ? 'replaced' : rewrites ? 'ok' : 'missing' });
    if (!rewrites) {
      parts.push(`[group ${i + 1} of ${groups.length} missing: ${unitRange(group.unit_ids)}]`);
      return;
    }
    const sources = new Map(group.units.map((u) => [u.id, u.text]));
    for (const id of group.unit_ids) {
      const rewrite = rewrites.get(id) as string;
      clauses.push({ id, group_key: group.group_key, source: sources.get(id) ?? '', rewrite });
      parts.push(`${id} ${rewrite}`);
    }
  });
  const missing = out.filter((g) => g.status === 'missing').map((g) => g.group_key);
  return {
    document: parts.join('\n\n'), clauses, groups: out, group_count: out.length, assembled_count: out.length - missing.length,
    complete: missing.length === 0, missing_groups: missing, replaced_groups: out.filter((g) => g.status === 'replaced').map((g) => g.group_key),
  };
}
