import MiniSearch from 'minisearch';
import { hashString } from '../chain/hash.ts';
import type { RetrievedSection } from './retrieve.ts';
import { splitSections, type Section } from './sections.ts';

/**
 * The retrieve step's search: BM25 (minisearch) over a document's sections. Loaded when a
 * retrieve step first runs, not with the step registry, so the designer's first paint does not
 * carry a search engine.
 */
// Question words carry no topic; without dropping them BM25 ranks sections by "how", "do", "I".
export const STOP_WORDS: ReadonlySet<string> = new Set('a an and are as at be by can do does for from had has have how i if in into is it its may me my no not of on or our shall should so such than that the their them then there these they this to under was we what when where which who whom why will with within would you your'.split(' '));

/** Lowercase, drop stop words, fold simple plurals ("days" matches "180-day"). */
export function processTerm(term: string): string | null {
  const t = term.toLowerCase();
  if (STOP_WORDS.has(t)) return null;
  return t.length > 3 && t.endsWith('s') && !t.endsWith('ss') ? t.slice(0, -1) : t;
}

/** The fields searched, in this order, and their boosts (a field not named here: 1). */
export const SEARCH_FIELDS = ['heading', 'text'] as const;
export const SEARCH_BOOST: Readonly<Record<string, number>> = { heading: 1.5 };
/** BM25+ as MiniSearch 7 scores by default, written out so the Python runtime reads the same numbers. */
export const BM25_PARAMS = { k: 1.2, b: 0.7, d: 0.5 } as const;

// Indexes are cached by document content, so rerunning over the same document is cheap.
const indexCache = new Map<string, { index: MiniSearch<Section>; sections: Section[] }>();

function indexFor(document: string) {
  const key = hashString(document);
  let entry = indexCache.get(key);
  if (!entry) {
    const sections = splitSections(document);
    const index = new MiniSearch<Section>({ idField: 'id', fields: [...SEARCH_FIELDS], storeFields: [], processTerm });
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
    .search(query, { combineWith: 'OR', boost: { ...SEARCH_BOOST }, bm25: { ...BM25_PARAMS } })
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
