import type { StoreApi } from 'zustand';
import type { Chain } from '../../src/chain/schema.ts';
import type { EditorState } from '../stores/editor-store.ts';
import { saveChain } from './chains.ts';
import type { SeamscopeDb } from './db.ts';

/**
 * Debounced autosave as a store subscription (never inside an action): any new chain
 * object in the store is written after `delayMs` of quiet. Chains that came from the
 * database are marked clean so opening one does not write it back.
 */
const clean = new WeakSet<Chain>();

export function markClean(chain: Chain): void {
  clean.add(chain);
}

export interface Autosave {
  flush(): Promise<void>;
  /** Drops a pending save of this chain (it is being deleted). */
  cancel(chainId: string): void;
  stop(): void;
}

export function startAutosave(store: StoreApi<EditorState>, db: SeamscopeDb, delayMs = 400): Autosave {
  let pending: Chain | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const flush = async () => {
    if (timer) clearTimeout(timer);
    timer = null;
    const chain = pending;
    pending = null;
    if (!chain) return;
    try {
      const summary = await saveChain(db, chain);
      store.getState().upsertLibraryEntry(summary);
    } catch (error) {
      store.getState().pushToast('error', `Could not save "${chain.name}": ${(error as Error).message}`);
    }
  };

  const unsubscribe = store.subscribe((state, prev) => {
    const chain = state.chain;
    if (!chain || chain === prev.chain || clean.has(chain)) return;
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
    stop: () => {
      unsubscribe();
      window.removeEventListener('pagehide', onHide);
    },
  };
}
