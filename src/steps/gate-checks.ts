import jsonLogic from 'json-logic-js';
import { getPath } from '../chain/refs.ts';
import { normaliseForContainment } from './gate-text.ts';
import { splitSections } from './sections.ts';
import { selectAll } from './select-path.ts';
import { isContainer } from '../files/json-value.ts';

/**
 * The deterministic checks a gate can run. Each returns its problems as plain sentences;
 * an empty list means the check holds. Nothing from a chain file is evaluated as code: custom
 * checks are JSON Logic rules (data), with the one operation that reaches into JavaScript
 * (`method`, which can call any method of a value and so reach `Function`) removed.
 */
jsonLogic.rm_operation('method');

/**
 * `var` over own properties only. json-logic-js descends with `data[key]`, so
 * `{"var": "value.constructor"}` on an object without that key finds Object's constructor
 * instead of null; the exported runtimes (TypeScript and Python) read own keys, and so does
 * this. Arrays and strings keep their indices and `length` (own properties too).
 */
function ownVar(data: unknown, path?: unknown, fallback?: unknown): unknown {
  const notFound = fallback === undefined ? null : fallback;
  if (path === undefined || path === '' || path === null) return data;
  let current: unknown = data;
  for (const key of String(path).split('.')) {
    if (current === null || current === undefined) return notFound;
    const holder: unknown = typeof current === 'object' || typeof current === 'string' ? Object(current) : null;
    current = isContainer(holder) && Object.hasOwn(holder, key) ? Reflect.get(holder, key) : undefined;
    if (current === undefined) return notFound;
  }
  return current;
}
// json-logic-js calls an operation with the data as `this`.
jsonLogic.add_operation('var', function var_(this: unknown, path?: unknown, fallback?: unknown) {
  return ownVar(this, path, fallback);
});

function lastSegment(path: string): { parent: string; field: string } {
  const i = path.lastIndexOf('.');
  return i < 0 ? { parent: '', field: path } : { parent: path.slice(0, i), field: path.slice(i + 1) };
}

/** Quotes verbatim in the source (whitespace-normalised), and inside the section they name when `sectionField` is set. */
export function checkQuotes(value: unknown, source: string, quotesPath: string, sectionField?: string): string[] {
  const haystack = normaliseForContainment(source);
  const sections = sectionField ? new Map(splitSections(source).map((s) => [s.id, normaliseForContainment(s.text)])) : null;
  const { parent, field } = lastSegment(quotesPath);
  const items = parent ? selectAll(value, parent) : [value];
  const problems: string[] = [];
  items.forEach((item, i) => {
    const quote = getPath(item, [field.replace('[*]', '')]);
    if (typeof quote !== 'string') return problems.push(`quote ${i + 1} is not a string`);
    const needle = normaliseForContainment(quote);
    if (!haystack.includes(needle)) return problems.push(`quote ${i + 1} is not in the source: "${quote.slice(0, 120)}"`);
    if (sections && sectionField) {
      const sectionId = getPath(item, [sectionField]);
      const text = typeof sectionId === 'string' ? sections.get(sectionId) : undefined;
      if (text === undefined) problems.push(`quote ${i + 1} names the section ${JSON.stringify(sectionId)}, which the source does not have`);
      else if (!text.includes(needle)) problems.push(`quote ${i + 1} is in the source but not in the section it names (${String(sectionId)})`);
    }
    return undefined;
  });
  return problems;
}

/** Returned ids equal the expected ids: lists what is missing, extra and repeated (the seam check after a split rewrite). */
export function checkIdSet(returned: unknown[], expected: unknown[]): string[] {
  const ret = returned.map(String);
  const exp = new Set(expected.map(String));
  const got = new Set(ret);
  const missing = [...exp].filter((id) => !got.has(id));
  const extra = [...got].filter((id) => !exp.has(id));
  const repeated = [...new Set(ret.filter((id, i) => ret.indexOf(id) !== i))];
  if (missing.length + extra.length + repeated.length === 0) return [];
  // Counts first, so a 202-id seam reads at a glance; ids quoted, so "4.2" is not read as a number.
  const quoted = (ids: string[]) => ids.map((id) => JSON.stringify(id)).join(', ');
  const problems = [`expected ${exp.size}, returned ${ret.length}, missing ${missing.length}, extra ${extra.length}${repeated.length ? `, repeated ${repeated.length}` : ''}`];
  if (missing.length) problems.push(`missing ids: ${quoted(missing)}`);
  if (extra.length) problems.push(`extra ids: ${quoted(extra)}`);
  if (repeated.length) problems.push(`repeated ids: ${quoted(repeated)}`);
  return problems;
}

/**
 * Citation checks: a cited id that was never retrieved (phantom citation), a
 * claim with no citation (uncited claim), and the top-ranked chunk cited nowhere.
 */
export function checkCitations(claims: unknown[], available: unknown[], opts: { citationsField: string; textField: string; requireTopCited: boolean }): string[] {
  const ids = available.map(String);
  const known = new Set(ids);
  const cited = new Set<string>();
  const problems: string[] = [];
  claims.forEach((claim, i) => {
    const raw = getPath(claim, [opts.citationsField]);
    const list = Array.isArray(raw) ? raw.map(String) : [];
    const text = getPath(claim, [opts.textField]);
    const label = typeof text === 'string' ? `"${text.slice(0, 60)}"` : `claim ${i + 1}`;
    if (list.length === 0) problems.push(`uncited claim: ${label}`);
    for (const id of list) {
      if (!known.has(id)) problems.push(`phantom citation: ${label} cites ${id}, which was not retrieved`);
      cited.add(id);
    }
  });
  if (opts.requireTopCited && ids[0] !== undefined && !cited.has(ids[0])) problems.push(`top chunk uncited: ${ids[0]} ranked first but no claim cites it`);
  return problems;
}

/** Numbers in running text, leaving out paragraph markers such as (1) and § references. */
export function statedNumbers(text: string): string[] {
  const cleaned = text.replace(/§+\s*[\w.–-]+/g, ' ').replace(/\((?:[a-zA-Z]{1,4}|\d{1,3})\)/g, ' ');
  return [...new Set([...cleaned.matchAll(/\d[\d,]*(?:\.\d+)?/g)].map((m) => m[0].replace(/,/g, '').replace(/\.$/, '')))];
}

/** Every number an answer states appears in one of the sections it cites. */
export function checkNumbers(answer: string, citedSections: unknown[], source: string): string[] {
  const byId = new Map(splitSections(source).map((s) => [s.id, s.text]));
  const cited = citedSections.map(String);
  const unknown = cited.filter((id) => !byId.has(id));
  const problems = unknown.map((id) => `cites ${id}, which the source does not have`);
  const texts = cited.map((id) => byId.get(id) ?? '').join('\n');
  const available = new Set(statedNumbers(texts));
  for (const n of statedNumbers(answer)) {
    if (!available.has(n)) problems.push(`states ${n}, which no cited section (${cited.join(', ') || 'none'}) contains`);
  }
  return problems;
}

/** A custom rule as JSON Logic over `{ value, ... }`; truthy passes. */
export function checkRule(rule: unknown, data: Record<string, unknown>, message: string): string[] {
  try {
    return jsonLogic.apply(rule as jsonLogic.RulesLogic, data) ? [] : [message];
  } catch (error) {
    return [`the rule could not be applied: ${(error as Error).message}`];
  }
}
