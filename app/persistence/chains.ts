import { isContainer } from '../../src/files/index.ts';
import { chainEndpointProblem } from '../profiles/chain-endpoint.ts';
import { Dexie } from 'dexie';
import { hashValue } from '../../src/chain/index.ts';
import { parseChain, restoreChain, type ChainProblem } from '../../src/chain/parse.ts';
import { checkRelativePath } from '../../src/files/index.ts';
import { setOwn } from '../../src/chain/index.ts';
import { importChainSource, type FidelityReport } from '../../src/formats/index.ts';
import type { Chain } from '../../src/chain/index.ts';
import type { ChainSummary } from '../stores/workspace-slice.ts';
import { publishChainEvent } from './chain-events.ts';
import type { ChainRecord, EventRecord, RevisionRecord, RunRecord, SeamscopeDb } from './db.ts';
import { stepRegistry } from '../../src/steps/index.ts';

/** Library reads and writes. Nothing is stored unless parseChain accepted the whole file. */

export function toSummary(record: Pick<ChainRecord, 'id' | 'name' | 'updatedAt'>): ChainSummary {
  return { id: record.id, name: record.name, updatedAt: record.updatedAt };
}

export async function listChainSummaries(db: SeamscopeDb): Promise<ChainSummary[]> {
  const records = await db.chains.orderBy('updatedAt').reverse().toArray();
  return records.map(toSummary);
}

/** Saves within this long of the latest revision replace it (the first revision is kept). */
export const REVISION_WINDOW_MS = 60_000;
export const REVISIONS_KEPT = 100;

// Numbers only in the second key part, so ±Infinity bound it.
const revisionsOf = (db: SeamscopeDb, chainId: string) => db.revisions.where('[chainId+savedAt]').between([chainId, -Infinity], [chainId, Infinity]);

/**
 * Inside a transaction on chains and revisions: adds this state to the chain's history. Saves
 * within a minute of the latest revision replace it (typing does not make a revision per
 * keystroke), except that the first revision, the state the chain arrived in, is always kept.
 */
async function keepRevision(db: SeamscopeDb, record: ChainRecord): Promise<void> {
  const ids = await revisionsOf(db, record.id).primaryKeys();
  const lastId = ids.at(-1);
  const latest = lastId === undefined ? undefined : await db.revisions.get(lastId);
  if (latest?.revision === record.revision) return;
  if (latest && ids.length >= 2 && record.updatedAt - latest.openedAt < REVISION_WINDOW_MS && record.updatedAt >= latest.savedAt) {
    await db.revisions.put({ ...latest, savedAt: record.updatedAt, revision: record.revision, name: record.name, chain: record.chain });
    return;
  }
  await db.revisions.add({ chainId: record.id, openedAt: record.updatedAt, savedAt: record.updatedAt, revision: record.revision, name: record.name, chain: record.chain });
  if (ids.length + 1 > REVISIONS_KEPT) await db.revisions.bulkDelete(ids.slice(1, ids.length + 1 - REVISIONS_KEPT + 1));
}

export async function saveChain(db: SeamscopeDb, chain: Chain, updatedAt = Date.now()): Promise<ChainSummary> {
  const result = await saveChainChecked(db, chain, undefined, updatedAt);
  if (result.conflict) throw new Error('unreachable: an unconditional save cannot conflict');
  return result.summary;
}

export type CheckedSave = { conflict: false; summary: ChainSummary; revision: string } | { conflict: true; stored: ChainRecord };

/**
 * Saves unless another tab saved a different state since `base` (the revision this tab last
 * loaded or wrote, or each revision its own earlier writes may have stored): then nothing is
 * written and the stored record comes back, so no edit is lost without the person choosing.
 * `base` undefined saves unconditionally. `revision` is the chain's hash, when the caller has it.
 * The transaction is created before the first await, so saves run in the order they were called.
 */
export async function saveChainChecked(
  db: SeamscopeDb,
  chain: Chain,
  base: string | readonly string[] | undefined,
  updatedAt = Date.now(),
  revision = hashValue(chain),
): Promise<CheckedSave> {
  const record: ChainRecord = { id: chain.id, name: chain.name, updatedAt, revision, chain };
  const ours = typeof base === 'string' ? [base] : base;
  const write = async (): Promise<CheckedSave> => {
    const stored = ours === undefined ? undefined : await db.chains.get(chain.id);
    if (stored && stored.revision !== record.revision && !ours?.includes(stored.revision)) return { conflict: true, stored };
    await db.chains.put(record);
    return { conflict: false, summary: toSummary(record), revision: record.revision };
  };
  const saved = () => publishChainEvent({ type: 'saved', chainId: chain.id, revision: record.revision, name: chain.name, updatedAt });
  // Inside a caller's transaction (an imported trace stores its chain with its run, in one
  // transaction without the revisions table): write there; the revision follows its commit.
  const outer = Dexie.currentTransaction;
  if (outer && !outer.storeNames.includes('revisions')) {
    const result = await write();
    if (!result.conflict) {
      outer.on('complete', () => {
        void db.transaction('rw', db.revisions, () => keepRevision(db, record)).catch(() => undefined);
        saved();
      });
    }
    return result;
  }
  let refused: ChainRecord | undefined;
  try {
    await db.transaction('rw', db.chains, db.revisions, async () => {
      // The read and the write are placed together, with no await between them: a save begun
      // as the page goes (pagehide) has its write in the transaction before the page can no
      // longer answer a read. A conflict found by the read then aborts the transaction, which
      // takes the write back.
      const reading = ours === undefined ? undefined : db.chains.get(chain.id);
      const writing = db.chains.put(record);
      const stored = await reading;
      if (stored && stored.revision !== record.revision && !ours?.includes(stored.revision)) {
        refused = stored;
        throw new ConflictAbort();
      }
      await writing;
      await keepRevision(db, record);
    });
  } catch (error) {
    if (!(error instanceof ConflictAbort) || !refused) throw error;
    return { conflict: true, stored: refused };
  }
  saved();
  return { conflict: false, summary: toSummary(record), revision: record.revision };
}

/** Thrown inside a save's transaction to abort it (and its write) when another tab saved first. */
class ConflictAbort extends Error {}

/**
 * A save begun as the page goes (pagehide, also before a reload). Chromium commits a transaction
 * the page commits itself (IDBTransaction.commit) and drops one that waits for the page to read a
 * result, so this one reads nothing: it adds a revision and, with `current`, puts the chain, then
 * commits, all before returning. Without the read it cannot see a save from another tab in the
 * instant before (saveChainChecked can): that tab's state stays in the revision it wrote. When
 * this tab already knows of such a save (the person has not chosen yet), `current: false` keeps
 * this tab's state as a revision only, so neither is lost.
 */
export function saveChainOnExit(db: SeamscopeDb, chain: Chain, opts: { revision: string; current: boolean; updatedAt?: number }): Promise<ChainSummary> {
  const updatedAt = opts.updatedAt ?? Date.now();
  const record: ChainRecord = { id: chain.id, name: chain.name, updatedAt, revision: opts.revision, chain };
  const tx = db.backendDB().transaction([db.chains.name, db.revisions.name], 'readwrite');
  if (opts.current) tx.objectStore(db.chains.name).put(record);
  const revision: Omit<RevisionRecord, 'id'> = { chainId: chain.id, openedAt: updatedAt, savedAt: updatedAt, revision: record.revision, name: chain.name, chain };
  tx.objectStore(db.revisions.name).add(revision);
  tx.commit();
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => {
      if (opts.current) publishChainEvent({ type: 'saved', chainId: chain.id, revision: record.revision, name: chain.name, updatedAt });
      resolve(toSummary(record));
    };
    tx.onabort = () => reject(tx.error ?? new Error('the save was aborted'));
  });
}

/** The chain's revisions, newest first, without their chains (for the list). */
export async function listRevisions(db: SeamscopeDb, chainId: string): Promise<Omit<RevisionRecord, 'chain'>[]> {
  const rows = await revisionsOf(db, chainId).reverse().toArray();
  return rows.map(({ chain: _chain, ...rest }) => rest);
}

/**
 * A stored chain as this version reads it: through restoreChain, like a file, so a chain saved
 * by an older Seamscope is migrated on the way out (and written back migrated by the next
 * save). A chain saved mid-edit may have problems and still opens; one that is not a chain at
 * all (damaged, or from a newer Seamscope) is refused with its name, and nothing is changed.
 */
function readStored(chain: unknown, name: string): Chain {
  const restored = restoreChain(chain, stepRegistry);
  if (restored.ok) return restored.chain;
  const first = restored.problems[0];
  throw new Error(`The stored chain "${name}" cannot be read${first ? ` (${first.path}: ${first.message})` : ''}.`);
}

export async function loadRevision(db: SeamscopeDb, id: number): Promise<RevisionRecord | undefined> {
  const revision = await db.revisions.get(id);
  return revision && { ...revision, chain: readStored(revision.chain, revision.name) };
}

export async function loadChainRecord(db: SeamscopeDb, id: string): Promise<ChainRecord | undefined> {
  const record = await db.chains.get(id);
  return record && { ...record, chain: readStored(record.chain, record.name) };
}

export async function loadChain(db: SeamscopeDb, id: string): Promise<Chain | undefined> {
  return (await loadChainRecord(db, id))?.chain;
}

/** Everything stored for one chain: enough to put a deleted chain back exactly as it was. */
export interface ChainSnapshot {
  chain: ChainRecord;
  runs: RunRecord[];
  events: EventRecord[];
  revisions: RevisionRecord[];
}

/**
 * Deletes a chain with its runs, their events and its revisions. Returns what was deleted, so
 * the delete can be undone (undeleteChain) while the tab is open.
 */
export async function deleteChain(db: SeamscopeDb, id: string): Promise<ChainSnapshot | null> {
  const snapshot = await db.transaction('rw', [db.chains, db.runs, db.events, db.revisions], async (): Promise<ChainSnapshot | null> => {
    const chain = await db.chains.get(id);
    const runs = await db.runs.where('chainId').equals(id).toArray();
    const runIds = runs.map((r) => r.id);
    const events = await db.events.where('runId').anyOf(runIds).toArray();
    const revisions = await db.revisions.where('chainId').equals(id).toArray();
    await db.events.where('runId').anyOf(runIds).delete();
    await db.runs.bulkDelete(runIds);
    await db.revisions.where('chainId').equals(id).delete();
    await db.chains.delete(id);
    return chain ? { chain, runs, events, revisions } : null;
  });
  publishChainEvent({ type: 'deleted', chainId: id });
  return snapshot;
}

/** Puts a deleted chain back with its runs, events (same sequence numbers) and revisions. */
export async function undeleteChain(db: SeamscopeDb, snapshot: ChainSnapshot): Promise<void> {
  await db.transaction('rw', [db.chains, db.runs, db.events, db.revisions], async () => {
    await db.chains.put(snapshot.chain);
    await db.runs.bulkPut(snapshot.runs);
    await db.events.bulkPut(snapshot.events);
    await db.revisions.bulkPut(snapshot.revisions);
  });
  const { id, revision, name, updatedAt } = snapshot.chain;
  publishChainEvent({ type: 'saved', chainId: id, revision, name, updatedAt });
}

export function newChainId(): string {
  return `chain-${globalThis.crypto.randomUUID().slice(0, 8)}`;
}

export type ImportResult =
  | { ok: true; chain: Chain; outcome: 'added' | 'same' | 'copy'; report: FidelityReport | null }
  | { ok: false; problems: ChainProblem[] };

/**
 * Imports a chain file. An id already in the library keeps the stored chain when the content
 * is the same; different content is stored under a new id so nothing is overwritten.
 */
export async function importChainText(db: SeamscopeDb, text: string, fileName?: string, readSibling?: (relativePath: string) => string | { error: string }): Promise<ImportResult> {
  // A chain file, or a TypeScript/Python program exported from one (its chain is embedded as data);
  // a flow brought with its folder reads the files beside it only from that folder.
  const parsed = importChainSource(text, { fileName, ...(readSibling ? { readSibling } : {}) });
  if (!parsed.ok) return parsed;
  // From another tool: what was kept, changed and dropped (also kept in the chain's meta).
  const report = parsed.report ?? null;
  const credential = chainEndpointProblem(parsed.chain);
  if (credential) return { ok: false, problems: [credential] };
  const existing = await db.chains.get(parsed.chain.id);
  if (!existing) {
    await saveChain(db, parsed.chain);
    return { ok: true, chain: parsed.chain, outcome: 'added', report };
  }
  if (existing.revision === hashValue(parsed.chain)) return { ok: true, chain: existing.chain, outcome: 'same', report };
  const copy = { ...parsed.chain, id: newChainId() };
  await saveChain(db, copy);
  return { ok: true, chain: copy, outcome: 'copy', report };
}

interface DemoEntry {
  file: string;
  id: string;
  name: string;
}

/** Demo files are served from public/demo; everything fetched here is parsed before it is stored. */
export function demoUrl(file: string): string {
  return `${import.meta.env.BASE_URL}demo/${file.split('/').map(encodeURIComponent).join('/')}`;
}

export async function loadDemoChains(db: SeamscopeDb): Promise<{ loaded: number; failed: string[] }> {
  const response = await fetch(demoUrl('index.json'));
  if (!response.ok) throw new Error(`the demo index could not be loaded (${response.status})`);
  const entries = (await response.json()) as DemoEntry[];
  const failed: string[] = [];
  const now = Date.now();
  let loaded = 0;
  for (const [i, entry] of entries.entries()) {
    try {
      const file = await fetch(demoUrl(entry.file));
      const parsed = parseChain(await file.text(), stepRegistry);
      if (!parsed.ok) {
        failed.push(`${entry.name}: ${parsed.problems.map((p) => `${p.path} — ${p.message}`).join('; ')}`);
        continue;
      }
      // Earlier entries get later timestamps so the library lists demos in index order.
      await saveChain(db, parsed.chain, now - i);
      loaded++;
    } catch (error) {
      failed.push(`${entry.name}: ${(error as Error).message}`);
    }
  }
  return { loaded, failed };
}

/**
 * Default texts for a chain's inputs from `meta.inputFiles` (input name → file under public/demo).
 * Import already refuses a chain whose entries leave its folder (parseChain); the same shared
 * check runs here again because chains stored before that rule never passed it.
 */
export async function loadInputFiles(chain: Chain): Promise<Record<string, string>> {
  const files = chain.meta?.inputFiles;
  if (!isContainer(files)) return {};
  const out: Record<string, string> = {};
  await Promise.all(
    Object.entries(files).map(async ([name, file]) => {
      const check = checkRelativePath(file);
      if (!check.ok) return;
      const response = await fetch(demoUrl(check.path));
      if (response.ok) setOwn(out, name, await response.text());
    }),
  );
  return out;
}
