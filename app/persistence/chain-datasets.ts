import { create } from 'zustand';

/**
 * Which dataset each chain is evaluated on, on this device: the Evaluate view links every ticked
 * chain to the dataset picked, and the designer reads the link to name the conditions that
 * dataset's questions need (the boundary contract card, the lint of a summarising step). Kept in
 * localStorage, not in the chain: a dataset lives in this browser's database, so its id means
 * nothing in an exported or shared chain file. Storage can be unavailable (private mode, a full
 * quota): the links then last for the page.
 */
const KEY = 'seamscope.chainDatasets';
/** Links kept at most (oldest out first): a library of a few hundred chains fits many times over. */
const MAX_LINKS = 500;

type Links = Readonly<Record<string, string>>;

function readLinks(): Links {
  try {
    const parsed: unknown = JSON.parse(globalThis.localStorage?.getItem(KEY) ?? '{}');
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    // Another tab or an old version may have written anything: only string → string pairs count.
    return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === 'string' && e[0] !== '__proto__'));
  } catch {
    return {};
  }
}

function writeLinks(links: Links): void {
  try {
    globalThis.localStorage?.setItem(KEY, JSON.stringify(links));
  } catch {
    // Full or blocked storage: the link lasts for the page.
  }
}

interface ChainDatasetsState {
  /** Chain id → the id of the dataset it was last evaluated on. */
  links: Links;
  /** Links each chain to the dataset (a no-op when every one already is). */
  link(chainIds: readonly string[], datasetId: string): void;
}

export const useChainDatasets = create<ChainDatasetsState>()((set, get) => ({
  links: readLinks(),
  link: (chainIds, datasetId) => {
    const { links } = get();
    if (!datasetId || chainIds.every((id) => datasetIn(links, id) === datasetId)) return;
    const next: Record<string, string> = Object.create(null) as Record<string, string>;
    // Re-linked chains move to the end, so the oldest links are the ones dropped past MAX_LINKS.
    for (const [id, d] of Object.entries(links)) if (!chainIds.includes(id)) next[id] = d;
    for (const id of chainIds) next[id] = datasetId;
    const kept = Object.fromEntries(Object.entries(next).slice(-MAX_LINKS));
    writeLinks(kept);
    set({ links: kept });
  },
}));

/** The dataset `chainId` is evaluated on, or null (own keys only: a chain id is text from a file). */
export const datasetIn = (links: Links, chainId: string): string | null => (Object.hasOwn(links, chainId) ? (links[chainId] as string) : null);

export const linkedDataset = (chainId: string): string | null => datasetIn(useChainDatasets.getState().links, chainId);
