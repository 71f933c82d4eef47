import { hashString } from '../chain/hash.ts';
import { isRecord } from '../files/json-value.ts';
import { packSections } from './grouping.ts';
import { splitSections, topLevelOf } from './sections.ts';

/**
 * What a split step does with the units it reads (split.ts holds its config and definition):
 * units from a document or a list, packed into groups that fit the output cap and the window,
 * with keys derived from the unit ids. Apart from the definition so the step registry, which
 * the designer's first paint carries, does not carry the sectioning: a run and the planner
 * load it.
 */
export interface Unit {
  id: string;
  text: string;
  section: string;
}

export interface UnitGroup {
  group_key: string;
  unit_ids: string[];
  units: { id: string; text: string }[];
  input_tokens: number;
  projected_output_tokens: number;
}

export interface GroupPlan {
  cap: number;
  window: number;
  sharedTokens: number;
  expansion: number;
  headroom: number;
}

/** Units from a document (split into sections) or from an array of `{id, text, section?}`. */
export function toUnits(value: unknown): Unit[] | string {
  if (typeof value === 'string') return splitSections(value).map((s) => ({ id: s.id, text: s.text, section: topLevelOf(s.id) }));
  if (!Array.isArray(value)) return 'split needs "units" bound to a document or an array of {id, text}';
  const units: Unit[] = [];
  for (const [i, item] of value.entries()) {
    if (!isRecord(item) || typeof item.text !== 'string') return `unit ${i + 1} has no text`;
    const id = String(item.id ?? i + 1);
    units.push({ id, text: item.text, section: String(item.section ?? topLevelOf(id)) });
  }
  return units;
}

/** Groups whose projected output fits the cap's headroom and whose input fits the window (packSections). */
export function groupUnits(units: readonly Unit[], plan: GroupPlan, countTokens: (t: string) => number): UnitGroup[] {
  const outLimit = plan.cap * plan.headroom;
  const inLimit = plan.window - plan.cap * plan.headroom;
  const fits = (source: number) => source * plan.expansion <= outLimit && plan.sharedTokens + source <= inLimit;
  return toUnitGroups(packSections(countUnits(units, countTokens), fits), plan);
}

export const countUnits = (units: readonly Unit[], countTokens: (t: string) => number) => units.map((u) => ({ ...u, tokens: countTokens(u.text) }));

/** The step's output form of grouped units: stable keys, the units, what each group sends and is expected to write. */
export function toUnitGroups(groups: readonly (readonly (Unit & { tokens: number })[])[], plan: Pick<GroupPlan, 'sharedTokens' | 'expansion'>): UnitGroup[] {
  return groups.map((g) => {
    const ids = g.map((u) => u.id);
    const input = g.reduce((n, u) => n + u.tokens, 0);
    return {
      group_key: groupKey(ids),
      unit_ids: ids, units: g.map((u) => ({ id: u.id, text: u.text })),
      input_tokens: input + plan.sharedTokens, projected_output_tokens: Math.ceil(input * plan.expansion),
    };
  });
}

/** A group's key from its unit ids alone, so the same units regroup under the same key on a retry. */
export function groupKey(unitIds: readonly string[]): string {
  return `g-${hashString(unitIds.join('\u0000')).slice(-10)}`;
}
