import type { Ranked } from './demo-evidence.ts';
import { material } from './demo-fields.ts';
import type { PromptAnalysis } from './demo-prompt.ts';

/**
 * Longer texts the demo model writes from its material: a customer reply that quotes the
 * policy lines it rests on, a plain-English rewrite of a contract clause, and the summary of
 * a typed collection (a reduce step's input). All of them are assembled from the prompt; the
 * only words added are connectives.
 */

/** A reply to a customer: thanks, the order it is about, and the best policy lines quoted verbatim. */
export function composeReply(analysis: PromptAnalysis, picks: Ranked[]): string {
  const order = /(?:^|[\s"'(])(#[A-Za-z]{0,4}\d{4,})\b/.exec(material(analysis))?.[1];
  const opening = `Thank you for contacting us${order ? ` about order ${order}` : ''}.`;
  const quoted = picks.slice(0, 2).map((r) => {
    const where = r.sentence.titles.at(-1);
    return `“${r.sentence.text}”${where ? ` (${where.replace(/[.:]$/, '')})` : ''}`;
  });
  if (quoted.length === 0) return `${opening} Nothing in the material we were given covers your request, so a colleague will follow up with you.`;
  return `${opening} Here is what our policy says about your request: ${quoted.join(' ')}`;
}

const plainWords: [RegExp, string][] = [
  [/\bshall mean\b/g, 'means'],
  [/\bshall have the meaning\b/g, 'has the meaning'],
  [/\bshall not\b/g, 'must not'],
  [/\bshall\b/g, 'must'],
  [/\bhereby\s+/g, ''],
  [/\bherein\b/g, 'in this agreement'],
  [/\bhereto\b/g, 'to this agreement'],
  [/\bhereunder\b/g, 'under this agreement'],
  [/\bhereof\b/g, 'of this agreement'],
  [/\bpursuant to\b/g, 'under'],
  [/\bin accordance with\b/g, 'under'],
  [/\bin the event that\b/gi, 'if'],
  [/\bprior to\b/g, 'before'],
  [/\bsubsequent to\b/g, 'after'],
  [/\bnotwithstanding\b/gi, 'despite'],
  [/,?\s*provided,? however,? that\b/g, ', but'],
  [/\bincluding,? but not limited to,?/g, 'including'],
  [/\bincluding,? without limitation,?/g, 'including'],
];

const smallWords = new Set(['and', 'or', 'of', 'the', 'in', 'for', 'to', 'a', 'an', 'on', 'by']);

/** Title-cases a run of capitals ("CONFIDENTIAL INFORMATION" → "Confidential Information"); short acronyms stay. */
function unshout(text: string): string {
  return text.replace(/\b[A-Z][A-Z'&-]+(?:\s+[A-Z][A-Z'&-]+)*\b/g, (run) => {
    if (!/\s/.test(run) && run.length <= 4) return run;
    return run.toLowerCase().split(/(\s+)/).map((w, i) => (i > 0 && smallWords.has(w) ? w : w.replace(/(^|-)([a-z])/g, (_, d: string, c: string) => d + c.toUpperCase()))).join('');
  });
}

/** A clause in plain English: its number (or own id) dropped, legal connectives simplified, capitals calmed, whitespace tidied. */
export function plainEnglish(clause: string, id?: string): string {
  let out = clause.replace(/\s+/g, ' ').trim().replace(/^\d+(?:\.\d+)*\.?\s+/, '');
  if (id && out.startsWith(`${id} `)) out = out.slice(id.length + 1);
  for (const [pattern, replacement] of plainWords) out = out.replace(pattern, replacement);
  out = unshout(out).replace(/\s+([,.;])/g, '$1').replace(/\s{2,}/g, ' ').trim();
  if (!out) return clause.trim();
  return out.charAt(0).toUpperCase() + out.slice(1);
}

type Row = Record<string, unknown>;

function arraysOfRows(value: unknown, key: string, out: { key: string; rows: Row[] }[], depth = 0): void {
  if (depth > 8 || !value || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    const rows = value.filter((v): v is Row => Boolean(v) && typeof v === 'object' && !Array.isArray(v));
    if (rows.length > 0) out.push({ key, rows });
    return;
  }
  for (const [k, v] of Object.entries(value as Row)) arraysOfRows(v, k, out, depth + 1);
}

/** Short string fields with few distinct values: the categories worth counting. */
function categoryCounts(rows: Row[]): string[] {
  const keys = new Set(rows.flatMap((r) => Object.keys(r)));
  const lines: string[] = [];
  for (const key of keys) {
    if (/(^|_)id$/i.test(key)) continue;
    const values = rows.map((r) => r[key]).filter((v): v is string => typeof v === 'string' && v.length > 0 && v.length <= 30);
    const distinct = [...new Set(values)];
    // A category repeats: at least one value is shared by two rows.
    if (values.length < rows.length / 2 || distinct.length < 1 || distinct.length >= values.length) continue;
    const counts = distinct.map((v) => ({ v, n: values.filter((x) => x === v).length })).sort((a, b) => b.n - a.n);
    lines.push(`By ${key.replace(/_/g, ' ')}: ${counts.map((c) => `${c.v} ${c.n}`).join(', ')}.`);
  }
  return lines;
}

/**
 * The summary of a typed collection handed over as JSON: how many units, which failed and
 * why, and counts of their categories. Null when the prompt carries no collection.
 */
export function collectionSummary(analysis: PromptAnalysis): string | null {
  const arrays: { key: string; rows: Row[] }[] = [];
  for (const v of analysis.json) arraysOfRows(v, '', arrays);
  const failed = arrays.find((a) => /fail|error/i.test(a.key));
  const main = arrays.filter((a) => a !== failed).sort((a, b) => b.rows.length - a.rows.length)[0];
  if (!main && !failed) return null;
  const ok = main?.rows.length ?? 0;
  const bad = failed?.rows ?? [];
  const idOf = (r: Row) => String(Object.entries(r).find(([k]) => /(^|_)id$/i.test(k))?.[1] ?? '?');
  const reasonOf = (r: Row) => String(Object.entries(r).find(([k, v]) => /error|reason|detail|message/i.test(k) && typeof v === 'string')?.[1] ?? 'failed');
  const parts = [`${ok + bad.length} units: ${ok} processed${bad.length ? `, ${bad.length} failed` : ', none failed'}.`];
  if (bad.length) parts.push(`Failed: ${bad.map((r) => `${idOf(r)} (${reasonOf(r).slice(0, 160)})`).join('; ')}.`);
  if (main) parts.push(...categoryCounts(main.rows));
  return parts.join(' ');
}
