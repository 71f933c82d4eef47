/**
 * A name no other item uses: the name itself, else "name (2)", "name (3)" … Compared without
 * case or surrounding space, as a person reading a list would. Four traces of one service
 * imported one after another get four names a person can tell apart.
 */
export function uniqueName(name: string, taken: Iterable<string>, maxLength = 200): string {
  const used = new Set([...taken].map((n) => n.trim().toLowerCase()));
  const base = name.trim() || 'Untitled';
  if (!used.has(base.slice(0, maxLength).toLowerCase())) return base.slice(0, maxLength);
  for (let i = 2; ; i++) {
    const suffix = ` (${i})`;
    const candidate = base.slice(0, maxLength - suffix.length) + suffix;
    if (!used.has(candidate.toLowerCase())) return candidate;
  }
}
