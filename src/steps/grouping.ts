/**
 * Contiguous grouping of units that keeps sections whole where it can: the one grouping concept
 * behind the split step (groups sized from limits) and the planner (exactly G groups, in
 * partition.ts). Units are already counted, so a plan described by numbers alone groups the
 * same way a document does.
 */
export interface CountedUnit {
  id: string;
  tokens: number;
  /** Units with the same section sit together; a section is only cut when it cannot fit. */
  section: string;
}

/**
 * Walks whole sections in order: a section joins the current group only if the group's source
 * tokens with it still satisfy `fits`; a section too big for any group is cut at unit
 * boundaries, never inside a unit. A single unit always gets a group, even over the limit.
 */
export function packSections<U extends CountedUnit>(units: readonly U[], fits: (groupTokens: number) => boolean): U[][] {
  const groups: U[][] = [];
  let current: U[] = [];
  let used = 0;
  const close = () => {
    if (current.length) groups.push(current);
    current = [];
    used = 0;
  };
  const add = (unit: U) => {
    current.push(unit);
    used += unit.tokens;
  };
  for (let i = 0; i < units.length;) {
    let j = i;
    while (j < units.length && units[j]?.section === units[i]?.section) j++;
    const section = units.slice(i, j);
    const sectionTokens = section.reduce((n, u) => n + u.tokens, 0);
    if (!fits(used + sectionTokens)) close();
    if (fits(used + sectionTokens)) section.forEach(add);
    else for (const unit of section) {
      if (current.length && !fits(used + unit.tokens)) close();
      add(unit);
    }
    i = j;
  }
  close();
  return groups;
}
