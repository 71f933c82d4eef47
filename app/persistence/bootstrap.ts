import { useEditorStore } from '../stores/editor-store.ts';
import { markClean, startAutosave, type Autosave } from './autosave.ts';
import { listChainSummaries, loadChain, loadDemoChains } from './chains.ts';
import { openDb } from './connection.ts';
import { loadProfiles, readActiveProfileId, writeActiveProfileId } from './profiles.ts';

let autosave: Autosave | null = null;

/** The running autosave (started once by `bootstrap`). */
export function getAutosave(): Autosave | null {
  return autosave;
}

/** Opens a chain from the library into the editor. */
export async function openChainFromDb(id: string): Promise<boolean> {
  await autosave?.flush();
  const chain = await loadChain(await openDb(), id);
  if (!chain) return false;
  markClean(chain);
  useEditorStore.getState().openChain(chain);
  return true;
}

/**
 * First thing after the app mounts: start autosave, load the library (seeding the demo
 * chains into an empty database), the profiles, and open the most recent chain.
 */
export async function bootstrap(): Promise<void> {
  const store = useEditorStore;
  const db = await openDb();
  // A run still marked running at start-up lost its tab mid-run: nothing is running it now.
  // It is shown as interrupted, and can resume from its durable events.
  await db.runs.where('status').equals('running').modify({ status: 'interrupted' });
  autosave ??= startAutosave(store, db);
  store.subscribe((state, prev) => {
    if (state.activeProfileId !== prev.activeProfileId) writeActiveProfileId(state.activeProfileId);
  });

  let library = await listChainSummaries(db);
  if (library.length === 0) {
    try {
      const { failed } = await loadDemoChains(db);
      if (failed.length > 0) store.getState().pushToast('error', `Some demo chains could not be loaded: ${failed.join(' · ')}`);
    } catch (error) {
      store.getState().pushToast('error', `The demo chains could not be loaded: ${(error as Error).message}`);
    }
    library = await listChainSummaries(db);
  }
  store.getState().setLibrary(library);

  const profiles = await loadProfiles(db);
  store.getState().setProfiles(profiles);
  const active = readActiveProfileId();
  if (active && profiles.some((p) => p.id === active)) store.getState().setActiveProfile(active);

  const first = library[0];
  if (first) await openChainFromDb(first.id);
}
