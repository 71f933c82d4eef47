import 'fake-indexeddb/auto';
import { Dexie } from 'dexie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { hashValue, type Chain } from '../../src/chain/index.ts';
import { twoStepChain } from '../../src/testing/index.ts';
import { useEditorStore } from '../stores/editor-store.ts';
import { selectChain } from '../stores/selectors.ts';
import { isClean, markClean, startAutosave, type Autosave, type PageLifecycle } from './autosave.ts';
import { listRevisions, saveChain } from './chains.ts';
import { SeamscopeDb } from './db.ts';

/**
 * Autosave against a real (fake-indexeddb) database and the real editor store: every edit,
 * undo and redo reaches the database, however fast they follow each other, the newest last.
 */
const s = () => useEditorStore.getState();
const open = () => selectChain(s())!;

let counter = 0;
const running: { db: SeamscopeDb; autosave: Autosave }[] = [];
afterEach(async () => {
  for (const { db, autosave } of running.splice(0)) {
    autosave.stop();
    db.close();
    await Dexie.delete(db.name);
  }
  s().openChain(null);
  s().setTabConflict(null);
});

function fakePage(): PageLifecycle & { document: EventTarget & { visibilityState: string } } {
  return { window: new EventTarget(), document: Object.assign(new EventTarget(), { visibilityState: 'visible' }) };
}

/** A stored chain opened in the editor, as the library opens one. */
async function openStored(db: SeamscopeDb, chain: Chain): Promise<void> {
  await saveChain(db, chain);
  markClean(chain);
  s().openChain(chain);
}

/** The quiet period is long, so only the flushes under test write. */
async function setUp(chain: Chain = twoStepChain()) {
  const db = new SeamscopeDb(`autosave-${++counter}`);
  const page = fakePage();
  const autosave = startAutosave(useEditorStore, db, { delayMs: 60_000, page });
  running.push({ db, autosave });
  await openStored(db, chain);
  const stored = async (id = chain.id) => (await db.chains.get(id))?.chain;
  return { db, page, autosave, stored, chain };
}

describe('autosave', () => {
  it('keeps the stored state when an edit is undone before its save', async () => {
    const { autosave, stored, chain } = await setUp();
    s().renameStep('extract', 'Renamed');
    s().undo();
    expect(autosave.hasPending(chain.id)).toBe(false);
    await autosave.flush();
    expect(await stored()).toEqual(chain);
  });

  it('writes an undo that comes while the edit is being written', async () => {
    const { autosave, stored, chain } = await setUp();
    s().renameStep('extract', 'Renamed');
    const writing = autosave.flush();
    s().undo();
    expect(autosave.hasPending(chain.id)).toBe(true);
    await autosave.flush();
    await writing;
    expect(await stored()).toEqual(chain);
    expect(isClean(open())).toBe(true);
  });

  it('writes a redo after an undo, and an undo after a save', async () => {
    const { autosave, stored, chain } = await setUp();
    s().renameStep('extract', 'Renamed');
    await autosave.flush();
    s().undo();
    await autosave.flush();
    expect(await stored()).toEqual(chain);
    s().redo();
    await autosave.flush();
    expect((await stored())?.steps.find((step) => step.id === 'extract')?.name).toBe('Renamed');
  });

  it('lands the newest state last when saves overlap, without taking its own writes for another tab', async () => {
    const { db, autosave, stored } = await setUp();
    const put = vi.spyOn(db.chains, 'put');
    // Edits, undos and redos, each save started before the one before it has landed.
    for (let i = 0; i < 20; i++) {
      if (i % 5 === 3) s().undo();
      else if (i % 5 === 4) s().redo();
      else s().renameStep('extract', `Name ${i}`);
      void autosave.flush();
    }
    await autosave.flush();
    expect(s().tabConflict).toBeNull();
    expect(put.mock.calls.length).toBeGreaterThan(1);
    // The last write is the present; the database holds it and the tab knows it is clean.
    expect(put.mock.calls.at(-1)?.[0].chain).toBe(open());
    expect(await stored()).toEqual(open());
    expect(isClean(open())).toBe(true);
    expect(s().library[0]?.updatedAt).toBe((await db.chains.get(open().id))?.updatedAt);
  });

  it('still refuses to overwrite what another tab saved', async () => {
    const { db, autosave, stored, chain } = await setUp();
    await saveChain(db, { ...chain, name: 'Other tab' });
    s().renameStep('extract', 'Mine');
    await autosave.flush();
    expect((await stored())?.name).toBe('Other tab');
    expect(s().tabConflict).toEqual({ chainId: chain.id });
  });

  it('writes and commits inside pagehide, reading nothing first', async () => {
    const { db, page, autosave, stored } = await setUp();
    // Chromium drops a transaction left waiting on a read as the page goes; it keeps one the page committed.
    const transaction = vi.spyOn(db.backendDB(), 'transaction');
    const commit = vi.spyOn(IDBTransaction.prototype, 'commit');
    const read = vi.spyOn(IDBObjectStore.prototype, 'get');
    s().renameStep('extract', 'Renamed');
    page.window.dispatchEvent(new Event('pagehide'));
    expect(transaction).toHaveBeenCalledTimes(1);
    expect(commit).toHaveBeenCalledTimes(1);
    expect(read).not.toHaveBeenCalled();
    await autosave.flush();
    expect(await stored()).toEqual(open());
    expect(isClean(open())).toBe(true);
    expect((await listRevisions(db, open().id))[0]?.revision).toBe(hashValue(open()));
  });

  it('on pagehide writes again a state whose save is under way', async () => {
    const { db, page, autosave, stored } = await setUp();
    s().renameStep('extract', 'Renamed');
    void autosave.flush();
    expect(autosave.hasPending(open().id)).toBe(true);
    const transaction = vi.spyOn(db.backendDB(), 'transaction');
    page.window.dispatchEvent(new Event('pagehide'));
    expect(transaction).toHaveBeenCalledTimes(1);
    await autosave.flush();
    expect(await stored()).toEqual(open());
    expect(await db.chains.count()).toBe(1);
  });

  it('on pagehide keeps the state as a revision only when another tab\'s save waits for the person', async () => {
    const { db, page, autosave, stored, chain } = await setUp();
    const theirs = { ...chain, name: 'Other tab' };
    await saveChain(db, theirs);
    s().setTabConflict({ chainId: chain.id });
    s().renameStep('extract', 'Mine');
    page.window.dispatchEvent(new Event('pagehide'));
    await autosave.flush();
    expect(await stored()).toEqual(theirs);
    expect((await listRevisions(db, chain.id))[0]?.revision).toBe(hashValue(open()));
  });

  it('writes when the page is hidden, not when it is shown', async () => {
    const { db, page, autosave, stored } = await setUp();
    const transaction = vi.spyOn(db, 'transaction');
    s().renameStep('extract', 'Renamed');
    page.document.dispatchEvent(new Event('visibilitychange'));
    expect(transaction).not.toHaveBeenCalled();
    page.document.visibilityState = 'hidden';
    page.document.dispatchEvent(new Event('visibilitychange'));
    expect(transaction).toHaveBeenCalledTimes(1);
    await autosave.flush();
    expect(await stored()).toEqual(open());
  });

  it('writes the old chain at once when another one opens', async () => {
    const { db, autosave, stored, chain } = await setUp();
    const other = { ...twoStepChain(), id: 'chain-other', name: 'Other' };
    await saveChain(db, other);
    s().renameStep('extract', 'Renamed');
    const edited = open();
    const transaction = vi.spyOn(db, 'transaction');
    markClean(other);
    s().openChain(other);
    expect(transaction).toHaveBeenCalledTimes(1);
    await autosave.flush();
    expect(await stored(chain.id)).toEqual(edited);
    expect(await stored(other.id)).toEqual(other);
  });
});
