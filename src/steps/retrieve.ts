import MiniSearch from 'minisearch';
import { z } from 'zod';
import { hashString } from '../chain/hash.ts';
import { stringifyForPrompt } from '../chain/template.ts';
import { bindingsSchema } from './common.ts';
import { splitSections, type Section } from './sections.ts';
import { defineStep } from './types.ts';

/**
 * BM25 selection over a document's sections, top-k, deterministic (seed 000's winning design:
 * select whole sections in code, then hand them to the original single prompt). No model call.
 */
export const retrieveConfigSchema = z.object({
  bindings: bindingsSchema.default(() => ({}) as Record<string, string>),
  topK: z.number().int().min(1).max(50).default(4),
});
export type RetrieveConfig = z.infer<typeof retrieveConfigSchema>;

export interface RetrievedSection {
  section_id: string;
  heading: string;
  text: string;
  score: number;
  rank: number;
}

// Question words carry no topic; without dropping them BM25 ranks sections by "how", "do", "I".
const stopWords = new Set('a an and are as at be by can do does for from had has have how i if in into is it its may me my no not of on or our shall should so such than that the their them then there these they this to under was we what when where which who whom why will with within would you your'.split(' '));

/** Lowercase, drop stop words, fold simple plurals ("days" matches "180-day"). */
export function processTerm(term: string): string | null {
  const t = term.toLowerCase();
  if (stopWords.has(t)) return null;
  return t.length > 3 && t.endsWith('s') && !t.endsWith('ss') ? t.slice(0, -1) : t;
}

// Indexes are cached by document content, so rerunning over the same document is cheap.
const indexCache = new Map<string, { index: MiniSearch<Section>; sections: Section[] }>();

function indexFor(document: string) {
  const key = hashString(document);
  let entry = indexCache.get(key);
  if (!entry) {
    const sections = splitSections(document);
    const index = new MiniSearch<Section>({ idField: 'id', fields: ['heading', 'text'], storeFields: [], processTerm });
    index.addAll(sections);
    entry = { index, sections };
    if (indexCache.size >= 16) indexCache.delete(indexCache.keys().next().value as string);
    indexCache.set(key, entry);
  }
  return entry;
}

export function retrieveSections(document: string, query: string, topK: number): { sections: RetrievedSection[]; total_sections: number } {
  const { index, sections } = indexFor(document);
  const order = new Map(sections.map((s, i) => [s.id, i]));
  const byId = new Map(sections.map((s) => [s.id, s]));
  const hits = index
    .search(query, { combineWith: 'OR', boost: { heading: 1.5 } })
    // Ties broken by document order so the same query always selects the same sections.
    .sort((a, b) => b.score - a.score || (order.get(String(a.id)) ?? 0) - (order.get(String(b.id)) ?? 0))
    .slice(0, topK);
  return {
    sections: hits.map((hit, i) => {
      const section = byId.get(String(hit.id)) as Section;
      return { section_id: section.id, heading: section.heading, text: section.text, score: Math.round(hit.score * 1000) / 1000, rank: i + 1 };
    }),
    total_sections: sections.length,
  };
}

export const retrieveStep = defineStep<'retrieve', RetrieveConfig>({
  kind: 'retrieve',
  title: 'Retrieve',
  group: 'Control',
  description: "BM25 selection of the top-k sections of a document for a query, in code.",
  config: retrieveConfigSchema,
  defaults: () => ({ bindings: {}, topK: 4 }),
  bindings: (cfg) => cfg.bindings,
  branches: () => [],
  terminal: false,
  fields: [
    { kind: 'bindings', key: 'bindings', label: 'Reads (document, query)' },
    { kind: 'number', key: 'topK', label: 'Sections to select', min: 1, max: 50 },
  ],
  summary: (cfg) => [`BM25 top ${cfg.topK}`, `over ${cfg.bindings.document ?? '(no document bound)'}`],
  outputSchema: () => ({
    type: 'object',
    properties: {
      sections: { type: 'array', items: { type: 'object', properties: { section_id: { type: 'string' }, heading: { type: 'string' }, text: { type: 'string' }, score: { type: 'number' }, rank: { type: 'integer' } } } },
      total_sections: { type: 'integer' },
    },
  }),
  async run(ctx) {
    const { document, query } = ctx.values;
    if (typeof document !== 'string' || !document.trim()) return { status: 'failed', failure: { code: 'missing_input', message: 'retrieve needs a text "document" bound' } };
    const q = stringifyForPrompt(query).trim();
    if (!q) return { status: 'failed', failure: { code: 'missing_input', message: 'retrieve needs a non-empty "query" bound' } };
    return { status: 'succeeded', output: { query: q, ...retrieveSections(document, q, ctx.config.topK) } };
  },
});
