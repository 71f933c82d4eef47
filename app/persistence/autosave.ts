import type { StoreApi } from 'zustand';
import { hashValue } from '../../src/chain/index.ts';
import type { Chain } from '../../src/chain/index.ts';
import type { EditorState } from '../stores/editor-store.ts';
import { saveChainChecked } from './chains.ts';
import type { SeamscopeDb } from './db.ts';
import { selectChain } from '../stores/selectors.ts';

/**
 * Debounced autosave as a store subscription (never inside an action): any new chain
 * object in the store is written after `delayMs` of quiet. For each chain the tab remembers the
 * object it last loaded or wrote (and that state's revision): that object is not written again
 * (opening a chain, or undoing back to it after a save, does the right thing), and a save is
 * refused when another tab wrote a different state since (see saveChainChecked).
 */
interface Synced {
  chain: Chain;
  /** Computed when first needed: hashing a large chain on every open is wasted work. */
  revision?: string;
}

const synced = new Map<string, Synced>();

/** The chain as it is in the database (just loaded, or just written by this tab). */
export function markClean(chain: Chain, revision?: string): void {
  synced.set(chain.id, { chain, revision });
}

/** True when the tab holds exactly what it last loaded or saved for this chain. */
export function isClean(chain: Chain): boolean {
  return synced.get(chain.id)?.chain === chain;
}

function baseRevision(chainId: string): string | undefined {
  const entry = synced.get(chainId);
  if (!entry) return undefined;
  entry.revision ??= hashValue(entry.chain);
  return entry.revision;
}

export interface Autosave {
  flush(): Promise<void>;
  /** Drops a pending save of this chain (it is being deleted). */
  cancel(chainId: string): void;
  /** True while a save of this chain waits for the quiet period. */
  hasPending(chainId: string): boolean;
  /** Saves the open chain over whatever another tab stored ("keep mine"). */
  overwrite(chain: Chain): Promise<void>;
  stop(): void;
}

export function startAutosave(store: StoreApi<EditorState>, db: SeamscopeDb, delayMs = 400): Autosave {
  let pending: Chain | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const write = async (chain: Chain, base: string | undefined) => {
    try {
      const result = await saveChainChecked(db, chain, base);
      if (result.conflict) {
        // Another tab saved this chain since this tab last synced: ask, never overwrite.
        if (selectChain(store.getState())?.id === chain.id) store.getState().setTabConflict({ chainId: chain.id });
        return;
      }
      markClean(chain, result.revision);
      store.getState().upsertLibraryEntry(result.summary);
    } catch (error) {
      store.getState().pushToast('error', `Could not save "${chain.name}": ${(error as Error).message}`);
    }
  };

  const flush = async () => {
    if (timer) clearTimeout(timer);
    timer = null;
    const chain = pending;
    pending = null;
    if (chain) await write(chain, baseRevision(chain.id));
  };

  const unsubscribe = store.subscribe((state, prev) => {
    const chain = selectChain(state);
    if (!chain || chain === selectChain(prev) || isClean(chain)) return;
    // Switching chains with a save pending: write the old one now rather than lose it.
    if (pending && pending.id !== chain.id) void flush();
    pending = chain;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void flush(), delayMs);
  });

  const onHide = () => void flush();
  window.addEventListener('pagehide', onHide);

  return {
    flush,
    cancel: (chainId) => {
      if (pending?.id !== chainId) return;
      pending = null;
      if (timer) clearTimeout(timer);
      timer = null;
    },
    hasPending: (chainId) => pending?.id === chainId,
    overwrite: async (chain) => {
      if (pending?.id === chain.id) {
        pending = null;
        if (timer) clearTimeout(timer);
        timer = null;
      }
      await write(chain, undefined);
    },
    stop: () => {
      unsubscribe();
      window.removeEventListener('pagehide', onHide);
    },
  };
}
