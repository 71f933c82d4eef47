import { createEmptyChain } from '../../src/chain/index.ts';
import type { ChainProblem } from '../../src/chain/parse.ts';
import type { Chain } from '../../src/chain/index.ts';
import type { FidelityReport } from '../../src/formats/index.ts';
import { markClean } from '../persistence/autosave.ts';
import { getAutosave, openChainFromDb } from '../persistence/bootstrap.ts';
import { deleteChain, importChainText, listChainSummaries, loadChainRecord, loadRevision, newChainId, undeleteChain, saveChain, type ChainSnapshot } from '../persistence/chains.ts';
import { openDb } from '../persistence/connection.ts';
import { useEditorStore } from '../stores/editor-store.ts';
import { useRunStore } from '../stores/run-store.ts';
import { selectChain } from '../stores/selectors.ts';
import { problemsOfChain } from '../designer/analysis.ts';
import { chainFileNameOf } from '../export/file-names.ts';

/**
 * Library commands: they write the database first, then tell the stores what is now true.
 * Kept out of the stores so store actions stay free of side effects.
 */
const editor = () => useEditorStore.getState();

async function refreshLibrary(): Promise<void> {
  editor().setLibrary(await listChainSummaries(await openDb()));
}

async function storeAndOpen(chain: Chain): Promise<void> {
  await getAutosave()?.flush();
  await saveChain(await openDb(), chain);
  markClean(chain);
  editor().openChain(chain);
  useRunStore.getState().closeReplay();
  await refreshLibrary();
}

export async function openChain(id: string): Promise<void> {
  if (selectChain(editor())?.id === id) return;
  useRunStore.getState().closeReplay();
  try {
    if (!(await openChainFromDb(id))) editor().pushToast('error', 'That chain is no longer in the library');
  } catch (error) {
    // A stored chain this version cannot read: say so; the open chain stays as it was.
    editor().pushToast('error', (error as Error).message);
  }
}

export function newChain(): Promise<void> {
  return storeAndOpen(createEmptyChain(newChainId()));
}

export async function duplicateChain(): Promise<void> {
  const chain = selectChain(editor());
  if (!chain) return;
  await storeAndOpen({ ...structuredClone(chain), id: newChainId(), name: `${chain.name} (copy)`.slice(0, 200) });
}

/** Deletes a chain (and its runs and revisions); the snapshot it returns puts all of it back. */
export async function removeChain(id: string): Promise<ChainSnapshot | null> {
  getAutosave()?.cancel(id);
  const snapshot = await deleteChain(await openDb(), id);
  await refreshLibrary();
  if (selectChain(editor())?.id === id) {
    useRunStore.getState().closeReplay();
    const next = editor().library[0];
    if (next) await openChainFromDb(next.id);
    else editor().openChain(null);
  }
  return snapshot;
}

/** Undoes a delete: the chain, its runs and events and its revisions come back, and it opens. */
export async function restoreDeleted(snapshot: ChainSnapshot): Promise<void> {
  await getAutosave()?.flush();
  await undeleteChain(await openDb(), snapshot);
  await refreshLibrary();
  await openChain(snapshot.chain.id);
}

/**
 * Renames a chain. The open chain is renamed through the editor (an undoable edit that
 * autosave writes); any other is renamed in the database directly.
 */
export async function renameChain(id: string, name: string): Promise<void> {
  const trimmed = name.trim().slice(0, 200);
  if (!trimmed) return;
  if (selectChain(editor())?.id === id) {
    editor().setChainName(trimmed);
    return;
  }
  const db = await openDb();
  const record = await loadChainRecord(db, id);
  if (!record || record.chain.name === trimmed) return;
  await saveChain(db, { ...record.chain, name: trimmed });
  await refreshLibrary();
}

/** Puts a stored revision back into the open chain, as one undoable edit (autosave writes it). */
export async function restoreRevision(revisionId: number): Promise<void> {
  const revision = await loadRevision(await openDb(), revisionId);
  const open = selectChain(editor());
  if (!revision || !open || revision.chainId !== open.id) throw new Error('that revision belongs to another chain');
  editor().replaceChain(revision.chain);
  editor().pushToast('info', `Restored the revision from ${new Date(revision.savedAt).toLocaleString()}`);
}

/** What importing a chain file came to: refused (problems, nothing stored), or opened with its fidelity report when it came from another tool. */
export type ChainImport = { problems: ChainProblem[] } | { report: FidelityReport | null };

/** `fileName` helps the formats registry tell a program (`.ts`, `.py`) from JSON; without it the text does. */
export async function importChainJson(text: string, fileName?: string, readSibling?: (relativePath: string) => string | { error: string }): Promise<ChainImport> {
  const result = await importChainText(await openDb(), text, fileName, readSibling);
  if (!result.ok) return { problems: result.problems };
  await getAutosave()?.flush();
  markClean(result.chain);
  editor().openChain(result.chain);
  useRunStore.getState().closeReplay();
  await refreshLibrary();
  const message = {
    added: `Imported "${result.chain.name}"`,
    same: `"${result.chain.name}" is already in the library; opened it`,
    copy: `A different chain with this id is in the library; imported "${result.chain.name}" as a copy`,
  }[result.outcome];
  editor().pushToast('info', message);
  return { report: result.report };
}

/** Downloads the open chain exactly as stored, pretty-printed: re-importing it yields the same chain. */
export async function exportChain(): Promise<void> {
  const chain = selectChain(editor());
  if (!chain) return;
  const problems = (await problemsOfChain(chain)).length;
  // Import only accepts sound files, so say so now rather than when the file comes back.
  if (problems > 0) editor().pushToast('error', `Exported with ${problems} problem${problems === 1 ? '' : 's'}: fix them, or this file will not import`);
  const blob = new Blob([JSON.stringify(chain, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = chainFileNameOf(chain);
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
