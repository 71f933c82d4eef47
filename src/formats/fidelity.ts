/**
 * What an import carried over from another tool's file, what it changed (and why) and what it
 * dropped. Every importer of a foreign format fills one; the chain keeps it in
 * `meta.importReport`, the Library shows it after Import and the CLI prints it. A setting a
 * step can hold is carried over or listed here: never replaced by a default unsaid.
 */
export interface FidelityEntry {
  /** Where in the source: the node's name (and type), or the file. */
  where: string;
  /** What: "max_tokens 256", "system prompt (412 characters, byte for byte)". */
  what: string;
  /** Why it was changed or dropped; absent for what was kept exactly. */
  why?: string;
}

export interface FidelityReport {
  /** The tool whose file was read, in its own name ("Langflow"). */
  tool: string;
  kept: FidelityEntry[];
  changed: FidelityEntry[];
  dropped: FidelityEntry[];
}

/** An empty report for `tool`, filled as the importer goes. */
export function createFidelityReport(tool: string): FidelityReport {
  return { tool, kept: [], changed: [], dropped: [] };
}

const line = (e: FidelityEntry) => `${e.where}: ${e.what}${e.why ? ` (${e.why})` : ''}`;

/** The report as lines for a terminal or a dialog: a heading, then kept / changed / dropped. */
export function fidelityLines(report: FidelityReport): string[] {
  const lines = [`Imported from ${report.tool}: ${report.kept.length} kept exactly, ${report.changed.length} changed, ${report.dropped.length} dropped`];
  for (const [title, list] of [['kept', report.kept], ['changed', report.changed], ['dropped', report.dropped]] as const) {
    for (const entry of list) lines.push(`  ${title}  ${line(entry)}`);
  }
  return lines;
}

/** A report read back from a chain's meta, or null when the chain was not imported from another tool. */
export function fidelityOf(meta: Record<string, unknown> | undefined): FidelityReport | null {
  const report = meta?.importReport;
  if (typeof report !== 'object' || report === null) return null;
  const r = report as Partial<FidelityReport>;
  const entries = (list: unknown): FidelityEntry[] => (Array.isArray(list) ? list.filter((e): e is FidelityEntry => typeof e === 'object' && e !== null && typeof (e as FidelityEntry).where === 'string' && typeof (e as FidelityEntry).what === 'string') : []);
  return typeof r.tool === 'string' ? { tool: r.tool, kept: entries(r.kept), changed: entries(r.changed), dropped: entries(r.dropped) } : null;
}
