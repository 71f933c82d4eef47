import { isRecord } from '../files/json-value.ts';
import { asSchema, conforms, type Schema } from './demo-schema.ts';

/**
 * The demo model as a reader (the two-pass rewrite: writers per group, then one reader): handed the assembled rewrite beside
 * the original, clause by clause, it checks the text for what separate writer calls cannot
 * keep consistent, and reports each defect with its clause and group. And as a repairer: handed
 * a defect list, its rewrite of a named clause applies the corrections. Nothing here knows the
 * demo contract; every finding comes from comparing the two texts.
 *
 * - terminology: a term the original defines in quotes ("Agreement") that the rewrite writes
 *   in another case more often than the original clause did ("this agreement");
 * - cross_reference: a reference in the original clause ("Section 10.5.1") missing from its
 *   rewrite, or one in the rewrite that the original clause does not have;
 * - numbering: a clause repeated, or a rewrite that opens with another clause's number.
 */

export interface DemoDefect {
  group_key: string;
  clause_id: string;
  kind: 'terminology' | 'cross_reference' | 'numbering';
  found: string;
  expected: string;
  note: string;
}

interface PairedClause {
  id: string;
  group: string;
  source: string;
  rewrite: string;
}

const sourceKey = /^(?:source|original|source_text|original_text)$/i;
const rewriteKey = /^(?:rewrite|rewritten|rewrite_text)$/i;
const groupKey = /^(?:group_key|group|group_id)$/i;

/** Records carrying an id, a group, the original and the rewrite: the reader's material. */
function pairedClauses(values: readonly unknown[]): PairedClause[] {
  const out: PairedClause[] = [];
  const walk = (value: unknown, depth: number): void => {
    if (depth > 8 || !value || typeof value !== 'object') return;
    if (Array.isArray(value)) return value.forEach((v) => walk(v, depth + 1));
    const entries = Object.entries(value);
    const pick = (re: RegExp) => entries.find(([k, v]) => re.test(k) && typeof v === 'string')?.[1] as string | undefined;
    const [id, group, source, rewrite] = [pick(/^(?:id|clause_id)$/i), pick(groupKey), pick(sourceKey), pick(rewriteKey)];
    if (id !== undefined && group !== undefined && source !== undefined && rewrite !== undefined) out.push({ id, group, source, rewrite });
    else for (const [, v] of entries) walk(v, depth + 1);
  };
  values.forEach((v) => walk(v, 0));
  return out;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Terms the original defines or names in quotes: a capital, then up to four more words. */
function definedTerms(clauses: readonly PairedClause[]): string[] {
  const terms = new Set<string>();
  for (const c of clauses) for (const m of c.source.matchAll(/["“]([A-Z][A-Za-z0-9-]*(?: [A-Za-z0-9-]+){0,4})[,.]?["”]/g)) terms.add(m[1] as string);
  return [...terms];
}

/** Each "<word before> <variant>" where the variant is the term in another case. */
function variantPhrases(text: string, term: string): string[] {
  const re = new RegExp(`(\\b[A-Za-z]+\\s+)?\\b(${escape(term)})\\b`, 'gi');
  return [...text.matchAll(re)].filter((m) => m[2] !== term).map((m) => `${m[1] ?? ''}${m[2]}`);
}

const count = (list: readonly string[], x: string) => list.filter((y) => y === x).length;

function terminology(c: PairedClause, terms: readonly string[]): DemoDefect[] {
  const out: DemoDefect[] = [];
  for (const term of terms) {
    const before = variantPhrases(c.source, term);
    const after = variantPhrases(c.rewrite, term);
    const drifted = [...new Set(after)].find((p) => count(after, p) > count(before, p));
    if (!drifted) continue;
    const expected = drifted.replace(new RegExp(`\\b${escape(term)}\\b$`, 'i'), term);
    out.push({
      group_key: c.group, clause_id: c.id, kind: 'terminology', found: drifted, expected,
      note: `"${term}" is a defined term of the original; the rewrite of ${c.id} writes "${drifted}".`,
    });
  }
  return out;
}

const referencePattern = /\b([Ss]ection|SECTION|[Aa]rticle|ARTICLE|[Ee]xhibit|EXHIBIT|[Ss]chedule|SCHEDULE)S?s?\s+(\d+(?:\.\d+)*|[A-Z])\b/g;
const title = (word: string) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();
/** "Section 10.5.1", "Exhibit A": references in any case (a clause in capitals refers in capitals), written one way. */
const referencesIn = (text: string) => [...new Set([...text.matchAll(referencePattern)].map((m) => `${title(m[1] as string)} ${m[2]}`))];

function crossReferences(c: PairedClause): DemoDefect[] {
  const [before, after] = [referencesIn(c.source), referencesIn(c.rewrite)];
  const kept = new Set(after);
  const had = new Set(before);
  return [
    ...before.filter((r) => !kept.has(r)).map((r) => ({ found: '', expected: r, note: `The original ${c.id} refers to ${r}; its rewrite does not.` })),
    ...after.filter((r) => !had.has(r)).map((r) => ({ found: r, expected: '', note: `The rewrite of ${c.id} refers to ${r}, which the original clause does not.` })),
  ].map((d) => ({ group_key: c.group, clause_id: c.id, kind: 'cross_reference' as const, ...d }));
}

function numbering(clauses: readonly PairedClause[]): DemoDefect[] {
  const out: DemoDefect[] = [];
  const seen = new Set<string>();
  const ids = new Set(clauses.map((c) => c.id));
  for (const c of clauses) {
    if (seen.has(c.id)) out.push({ group_key: c.group, clause_id: c.id, kind: 'numbering', found: c.id, expected: '', note: `Clause ${c.id} appears twice in the assembled rewrite.` });
    seen.add(c.id);
    const opens = /^(\d+(?:\.\d+)+)\s/.exec(c.rewrite)?.[1];
    if (opens && opens !== c.id && ids.has(opens)) out.push({ group_key: c.group, clause_id: c.id, kind: 'numbering', found: opens, expected: c.id, note: `The rewrite of ${c.id} opens with the number ${opens}.` });
  }
  return out;
}

/** Every defect the texts show, in clause order. */
export function findDefects(values: readonly unknown[]): DemoDefect[] | null {
  const clauses = pairedClauses(values);
  if (clauses.length === 0) return null;
  const terms = definedTerms(clauses);
  return [...clauses.flatMap((c) => [...terminology(c, terms), ...crossReferences(c)]), ...numbering(clauses)];
}

/** A defect report when the schema asks for one (a `defects` array of objects) and the prompt carries paired clauses. */
export function defectReport(values: readonly unknown[], root: Schema): Record<string, unknown> | null {
  const props = asSchema(root.properties);
  const list = props ? asSchema(props.defects) : null;
  if (!list || !asSchema(list.items)) return null;
  const defects = findDefects(values);
  if (!defects) return null;
  const max = typeof list.maxItems === 'number' ? list.maxItems : Infinity;
  const report = { defects: defects.slice(0, max) };
  return conforms(root, report, root) ? report : null;
}

/** The clause's rewrite with the corrections a handed defect list names for it applied. */
export function applyCorrections(text: string, clauseId: string, values: readonly unknown[]): string {
  let out = text;
  const visit = (value: unknown, depth: number): void => {
    if (depth > 8 || !value || typeof value !== 'object') return;
    if (Array.isArray(value)) return value.forEach((v) => visit(v, depth + 1));
    if (isRecord(value) && value.clause_id === clauseId && typeof value.found === 'string' && typeof value.expected === 'string') {
      const { found, expected } = value;
      if (found && expected) out = out.split(found).join(expected);
      else if (!found && expected && !out.includes(expected)) out = `${out.replace(/\.$/, '')} (${expected}).`;
      return;
    }
    for (const v of Object.values(value)) visit(v, depth + 1);
  };
  values.forEach((v) => visit(v, 0));
  return out;
}
