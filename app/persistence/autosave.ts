import type { StoreApi } from 'zustand';
import { hashValue } from '../../src/chain/index.ts';
import type { Chain } from '../../src/chain/index.ts';
import type { EditorState } from '../stores/editor-store.ts';
import { saveChainChecked, saveChainOnExit } from './chains.ts';
import type { ChainSummary } from '../stores/workspace-slice.ts';
import type { SeamscopeDb } from './db.ts';
import { selectChain } from '../stores/selectors.ts';

/**
 * Debounced autosave as a store subscription (never inside an action): every new chain object
 * in the store (an edit, an undo, a redo) schedules a save of that newest state, written after
 * `delayMs` of quiet, at once when another chain opens, and when the page is hidden or left.
 *
 * For each chain the tab remembers the object it last loaded or wrote (and that state's
 * revision, see markClean) and the newest state it has handed to the database and not yet seen
 * land. A change back to that newest state writes nothing (an undo before the quiet period
 * ends simply drops the pending save); any other state is written, also when it equals what was
 * loaded (an undo after a save must reach the database too).
 *
 * Order: each write starts its IndexedDB transaction at once (in the same task, never after an
 * await), and IndexedDB runs read-write transactions over the same tables in the order they were
 * created, so a newer save always lands after an older one; sequence numbers keep the tab's own
 * bookkeeping (clean state, library line) on the newest one. Starting at once matters on
 * `pagehide`: a transaction begun there is committed, a write queued behind a promise is not.
 * A save is refused when another tab wrote a different state since (see saveChainChecked).
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

function syncedRevision(chainId: string): string | undefined {
  const entry = synced.get(chainId);
  if (!entry) return undefined;
  entry.revision ??= hashValue(entry.chain);
  return entry.revision;
}

export interface Autosave {
  /** Starts the pending save now; resolves when every save started so far has settled. */
  flush(): Promise<void>;
  /** Drops a pending save of this chain (it is being deleted). */
  cancel(chainId: string): void;
  /** True while a save of this chain waits for the quiet period or is being written. */
  hasPending(chainId: string): boolean;
  /** Saves the open chain over whatever another tab stored ("keep mine"). */
  overwrite(chain: Chain): Promise<void>;
  stop(): void;
}

/** Where the page tells it is being hidden or left (the browser's window and document by default). */
export interface PageLifecycle {
  window: EventTarget;
  document: EventTarget & { readonly visibilityState: string };
}

export interface AutosaveOptions {
  /** Quiet time before a save. Short: a reload can cut short a write begun on the way out. */
  delayMs?: number;
  page?: PageLifecycle;
}

interface Saved {
  summary: ChainSummary;
  revision: string;
}

/** A write begun and not yet settled. */
interface InFlight {
  seq: number;
  chain: Chain;
  revision: string;
  done: Promise<void>;
}

export function startAutosave(store: StoreApi<EditorState>, db: SeamscopeDb, options: AutosaveOptions = {}): Autosave {
  const delayMs = options.delayMs ?? 250;
  const page = options.page ?? { window, document };
  let pending: Chain | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let seq = 0;
  const inFlight: InFlight[] = [];
  /** Per chain, the sequence number of the newest write that landed. */
  const landed = new Map<string, number>();

  const newestInFlight = (chainId: string) => inFlight.findLast((w) => w.chain.id === chainId);

  const clearTimer = () => {
    if (timer) clearTimeout(timer);
    timer = null;
  };

  /**
   * Begins writing `chain`; its transaction is created before this returns (see the module note).
   * `checked` refuses to overwrite another tab's save; `exit` is the write made as the page goes.
   */
  const write = (chain: Chain, mode: 'checked' | 'unchecked' | 'exit'): Promise<void> => {
    const mine = ++seq;
    const revision = hashValue(chain);
    /** Resolves to what was saved, or null when another tab's save was kept (see setTabConflict). */
    const start = (): Promise<Saved | null> => {
      if (mode === 'exit') {
        // A conflict this tab already knows of is the person's to settle: keep this state as a revision.
        const current = store.getState().tabConflict?.chainId !== chain.id;
        return saveChainOnExit(db, chain, { revision, current }).then((summary) => (current ? { summary, revision } : null));
      }
      // The states this tab may find stored: what it last synced, and what its earlier writes
      // (created before this one, so run before it) put there. Anything else is another tab's.
      // A chain this tab never loaded nor wrote has no base and is saved unconditionally.
      const base = mode === 'checked' ? syncedRevision(chain.id) : undefined;
      const ours = base === undefined ? undefined : [base, ...inFlight.filter((w) => w.chain.id === chain.id).map((w) => w.revision)];
      return saveChainChecked(db, chain, ours, Date.now(), revision).then((result) => (result.conflict ? null : result));
    };
    const entry: InFlight = { seq: mine, chain, revision, done: Promise.resolve() };
    entry.done = start()
      .then(
        (result) => {
          if (!result) {
            // Another tab saved this chain since this tab last synced: ask, never overwrite.
            if (selectChain(store.getState())?.id === chain.id) store.getState().setTabConflict({ chainId: chain.id });
            return;
          }
          if (mine < (landed.get(chain.id) ?? 0)) return;
          landed.set(chain.id, mine);
          markClean(chain, result.revision);
          store.getState().upsertLibraryEntry(result.summary);
        },
        (error: unknown) => {
          store.getState().pushToast('error', `Could not save "${chain.name}": ${(error as Error).message}`);
        },
      )
      .finally(() => inFlight.splice(inFlight.indexOf(entry), 1));
    inFlight.push(entry);
    return entry.done;
  };

  const startPending = () => {
    clearTimer();
    const chain = pending;
    pending = null;
    if (chain) void write(chain, 'checked');
  };

  const flush = async () => {
    startPending();
    await Promise.all(inFlight.map((w) => w.done));
  };

  const unsubscribe = store.subscribe((state, prev) => {
    const chain = selectChain(state);
    if (!chain || chain === selectChain(prev)) return;
    // Another chain opened with a save pending: write the old one now rather than lose it.
    if (pending && pending.id !== chain.id) startPending();
    // What the database holds once the writes under way land.
    const stored = newestInFlight(chain.id)?.chain ?? synced.get(chain.id)?.chain;
    if (chain === stored) {
      // Back to the stored state before the quiet period ended (an undo of an unsaved edit).
      if (pending?.id === chain.id) {
        pending = null;
        clearTimer();
      }
      return;
    }
    pending = chain;
    clearTimer();
    timer = setTimeout(startPending, delayMs);
  });

  // Left (reload, navigation, close; or put in the back-forward cache): the newest state of each
  // chain with a save pending or under way is written by a transaction that commits itself, as
  // one still waiting on a read is dropped with the page.
  const onHide = () => {
    clearTimer();
    const newest = new Map(inFlight.map((w) => [w.chain.id, w.chain]));
    if (pending) newest.set(pending.id, pending);
    pending = null;
    for (const chain of newest.values()) void write(chain, db.isOpen() ? 'exit' : 'checked');
  };
  // Hidden (tab switched, app backgrounded: it may be killed without another event): the page
  // still runs, so the usual checked save has time to land.
  const onVisibility = () => {
    if (page.document.visibilityState === 'hidden') startPending();
  };
  page.window.addEventListener('pagehide', onHide);
  page.document.addEventListener('visibilitychange', onVisibility);

  return {
    flush,
    cancel: (chainId) => {
      if (pending?.id !== chainId) return;
      pending = null;
      clearTimer();
    },
    hasPending: (chainId) => pending?.id === chainId || newestInFlight(chainId) !== undefined,
    overwrite: async (chain) => {
      if (pending?.id === chain.id) {
        pending = null;
        clearTimer();
      }
      await write(chain, 'unchecked');
    },
    stop: () => {
      unsubscribe();
      clearTimer();
      page.window.removeEventListener('pagehide', onHide);
      page.document.removeEventListener('visibilitychange', onVisibility);
    },
  };
}
