import { createEmptyChain } from '../../src/chain/edit.ts';
import type { ChainProblem } from '../../src/chain/parse.ts';
import type { Chain } from '../../src/chain/schema.ts';
import { markClean } from '../persistence/autosave.ts';
import { getAutosave, openChainFromDb } from '../persistence/bootstrap.ts';
import { deleteChain, importChainText, listChainSummaries, newChainId, saveChain } from '../persistence/chains.ts';
import { openDb } from '../persistence/connection.ts';
import { useEditorStore } from '../stores/editor-store.ts';
import { useRunStore } from '../stores/run-store.ts';
import { problemsOf } from '../stores/selectors.ts';

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
  if (editor().chain?.id === id) return;
  useRunStore.getState().closeReplay();
  if (!(await openChainFromDb(id))) editor().pushToast('error', 'That chain is no longer in the library');
}

export function newChain(): Promise<void> {
  return storeAndOpen(createEmptyChain(newChainId()));
}

export async function duplicateChain(): Promise<void> {
  const chain = editor().chain;
  if (!chain) return;
  await storeAndOpen({ ...structuredClone(chain), id: newChainId(), name: `${chain.name} (copy)`.slice(0, 200) });
}

export async function removeChain(id: string): Promise<void> {
  getAutosave()?.cancel(id);
  await deleteChain(await openDb(), id);
  await refreshLibrary();
  if (editor().chain?.id === id) {
    useRunStore.getState().closeReplay();
    const next = editor().library[0];
    if (next) await openChainFromDb(next.id);
    else editor().openChain(null);
  }
}

/** Reads a chosen file; problems come back for the dialog and nothing is stored. */
export async function importChainFile(file: File): Promise<ChainProblem[] | null> {
  const text = await file.text();
  const result = await importChainText(await openDb(), text);
  if (!result.ok) return result.problems;
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
  return null;
}

/** A file name from a chain name: no path separators or control characters. */
export function exportFileName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const safe = name.replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, ' ').trim() || 'chain';
  return `${safe}.chain.json`;
}

/** Downloads the open chain exactly as stored, pretty-printed: re-importing it yields the same chain. */
export function exportChain(): void {
  const chain = editor().chain;
  if (!chain) return;
  const problems = problemsOf(chain).length;
  // Import only accepts sound files, so say so now rather than when the file comes back.
  if (problems > 0) editor().pushToast('error', `Exported with ${problems} problem${problems === 1 ? '' : 's'}: fix them, or this file will not import`);
  const blob = new Blob([JSON.stringify(chain, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = exportFileName(chain.name);
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
