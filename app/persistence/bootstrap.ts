import { separateCollectorConsent } from '../egress/collector-consent.ts';
import { loadEgressAnswers } from '../egress/consent.ts';
import { useEditorStore } from '../stores/editor-store.ts';
import { markClean, startAutosave, type Autosave } from './autosave.ts';
import { listChainSummaries, loadChain, loadDemoChains } from './chains.ts';
import { openDb } from './connection.ts';
import { readActiveProfileId } from './preferences.ts';
import { loadProfiles } from './profiles.ts';
import { liveRunIds } from '../runs/run-lease.ts';

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
  // A run still marked running at start-up whose tab is gone (nobody holds its lease) lost
  // that tab mid-run: it is shown as interrupted, and can resume from its durable events. A run
  // going on in another tab holds its lease and is left alone.
  const live = await liveRunIds().catch(() => null);
  await db.runs.where('status').equals('running').filter((run) => !live?.has(run.id)).modify({ status: 'interrupted' });
  autosave ??= startAutosave(store, db);
  // Webhook consent is per device: another tab's answer holds here too.
  separateCollectorConsent();
  loadEgressAnswers();
  window.addEventListener('storage', (e: StorageEvent) => {
    if (e.key === null || e.key.startsWith('seamscope.webhook-consent')) loadEgressAnswers();
  });
  // This device's choice; loading the profiles first picks the first one (which
  // app/persistence/preferences.ts does not keep), then the choice is restored.
  const active = readActiveProfileId();

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
  if (active && profiles.some((p) => p.id === active)) store.getState().setActiveProfile(active);

  const first = library[0];
  if (!first) return;
  try {
    await openChainFromDb(first.id);
  } catch (error) {
    store.getState().pushToast('error', (error as Error).message);
  }
}
