import { packSections, type CountedUnit } from './grouping.ts';

// Apart from grouping.ts so a split run that packs does not load this: only the planner (loaded
// with a split step's panel) and a split with a chosen number of groups partition into G groups.

/** Cuts the group with the most tokens in two at its balanced unit boundary. */
function splitLargest<U extends CountedUnit>(groups: U[][]): void {
  let at = 0;
  const total = (g: U[]) => g.reduce((n, u) => n + u.tokens, 0);
  groups.forEach((g, i) => {
    if (g.length > 1 && (groups[at]!.length < 2 || total(g) > total(groups[at]!))) at = i;
  });
  const group = groups[at]!;
  const half = total(group) / 2;
  let cut = 1;
  for (let sum = group[0]!.tokens; cut < group.length - 1 && sum + group[cut]!.tokens <= half; cut++) sum += group[cut]!.tokens;
  groups.splice(at, 1, group.slice(0, cut), group.slice(cut));
}

/**
 * Exactly `count` contiguous groups (fewer only when there are fewer units), balanced by tokens:
 * the smallest per-group limit under which packSections needs no more than `count` groups, found
 * by bisection, so groups are as small as whole sections allow (a unit bigger than that limit
 * stands alone). When sections force
 * fewer groups at that limit, the largest groups are halved until there are `count`.
 *
 * @example
 * partitionUnits([{ id: '1', tokens: 10, section: 'a' }, { id: '2', tokens: 10, section: 'b' }], 2); // [[1], [2]]
 */
export function partitionUnits<U extends CountedUnit>(units: readonly U[], count: number): U[][] {
  const target = Math.max(1, Math.min(Math.floor(count), units.length));
  if (units.length === 0) return [];
  // From 0, not from the largest unit: a unit over the limit gets a group of its own, so one
  // outsized clause stands alone instead of every other group being filled up to its size.
  let low = 0;
  let high = units.reduce((n, u) => n + u.tokens, 0);
  // Group counts do not always fall as the limit rises (a section that starts fitting can leave
  // a gap), so bisection finds a limit that works, not necessarily the least one; the partition
  // it returns is still contiguous, complete and within one section's slack of balanced.
  while (low < high) {
    const mid = Math.floor((low + high) / 2);
    if (packSections(units, (t) => t <= mid).length <= target) high = mid;
    else low = mid + 1;
  }
  const groups = packSections(units, (t) => t <= high);
  while (groups.length < target) splitLargest(groups);
  return groups;
}
