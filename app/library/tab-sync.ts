import { isClean, markClean } from '../persistence/autosave.ts';
import { getAutosave } from '../persistence/bootstrap.ts';
import { onChainEvent, type ChainEvent } from '../persistence/chain-events.ts';
import { listChainSummaries, loadChainRecord } from '../persistence/chains.ts';
import { openDb } from '../persistence/connection.ts';
import { useEditorStore } from '../stores/editor-store.ts';
import { selectChain } from '../stores/selectors.ts';

/**
 * Two tabs on the same library. Another tab's save updates this tab's list; when it saved the
 * chain open here, this tab takes the new state if it has no edits of its own, and otherwise
 * shows a banner (reload theirs or keep mine). Autosave independently refuses to overwrite a
 * state it has not seen (see saveChainChecked), so no edit is lost whichever message comes first.
 * A run started or ended in another tab refreshes this tab's run list for that chain.
 */
const editor = () => useEditorStore.getState();

async function refreshList(): Promise<void> {
  editor().setLibrary(await listChainSummaries(await openDb()));
}

/** Loads the stored state of the open chain into the editor (an undoable edit). */
export async function reloadFromOtherTab(chainId: string): Promise<void> {
  const record = await loadChainRecord(await openDb(), chainId);
  editor().setTabConflict(null);
  if (!record || selectChain(editor())?.id !== chainId) return;
  getAutosave()?.cancel(chainId);
  markClean(record.chain, record.revision);
  editor().replaceChain(record.chain);
}

/** Keeps this tab's state: writes it over the other tab's. */
export async function keepMine(chainId: string): Promise<void> {
  const chain = selectChain(editor());
  editor().setTabConflict(null);
  if (chain?.id === chainId) await getAutosave()?.overwrite(chain);
}

async function onEvent(event: ChainEvent): Promise<void> {
  if (event.type === 'runs') {
    if (selectChain(editor())?.id === event.chainId) await (await import('../runs/run-actions.ts')).refreshRuns(event.chainId);
    return;
  }
  await refreshList();
  const chain = selectChain(editor());
  if (!chain || chain.id !== event.chainId) return;
  if (event.type === 'deleted') {
    editor().pushToast('info', `"${chain.name}" was deleted in another tab; editing it here saves it again`);
    return;
  }
  const autosave = getAutosave();
  if (isClean(chain) && !autosave?.hasPending(chain.id)) await reloadFromOtherTab(chain.id);
  else editor().setTabConflict({ chainId: chain.id });
}

let stop: (() => void) | null = null;

export function startTabSync(): void {
  stop ??= onChainEvent((event) => void onEvent(event).catch(() => undefined));
}
