import { hashValue } from '../../src/chain/hash.ts';
import { parseChain, type ChainProblem } from '../../src/chain/parse.ts';
import type { Chain } from '../../src/chain/schema.ts';
import type { ChainSummary } from '../stores/workspace-slice.ts';
import type { ChainRecord, SeamscopeDb } from './db.ts';

/** Library reads and writes. Nothing is stored unless parseChain accepted the whole file. */

export function toSummary(record: Pick<ChainRecord, 'id' | 'name' | 'updatedAt'>): ChainSummary {
  return { id: record.id, name: record.name, updatedAt: record.updatedAt };
}

export async function listChainSummaries(db: SeamscopeDb): Promise<ChainSummary[]> {
  const records = await db.chains.orderBy('updatedAt').reverse().toArray();
  return records.map(toSummary);
}

export async function saveChain(db: SeamscopeDb, chain: Chain, updatedAt = Date.now()): Promise<ChainSummary> {
  const record: ChainRecord = { id: chain.id, name: chain.name, updatedAt, revision: hashValue(chain), chain };
  await db.chains.put(record);
  return toSummary(record);
}

export async function loadChain(db: SeamscopeDb, id: string): Promise<Chain | undefined> {
  return (await db.chains.get(id))?.chain;
}

/** Deletes a chain and the runs recorded for it. */
export async function deleteChain(db: SeamscopeDb, id: string): Promise<void> {
  await db.transaction('rw', db.chains, db.runs, db.events, async () => {
    const runIds = await db.runs.where('chainId').equals(id).primaryKeys();
    await db.events.where('runId').anyOf(runIds).delete();
    await db.runs.bulkDelete(runIds);
    await db.chains.delete(id);
  });
}

export function newChainId(): string {
  return `chain-${globalThis.crypto.randomUUID().slice(0, 8)}`;
}

export type ImportResult =
  | { ok: true; chain: Chain; outcome: 'added' | 'same' | 'copy' }
  | { ok: false; problems: ChainProblem[] };

/**
 * Imports a chain file. An id already in the library keeps the stored chain when the content
 * is the same; different content is stored under a new id so nothing is overwritten.
 */
export async function importChainText(db: SeamscopeDb, text: string): Promise<ImportResult> {
  const parsed = parseChain(text);
  if (!parsed.ok) return parsed;
  const existing = await db.chains.get(parsed.chain.id);
  if (!existing) {
    await saveChain(db, parsed.chain);
    return { ok: true, chain: parsed.chain, outcome: 'added' };
  }
  if (existing.revision === hashValue(parsed.chain)) return { ok: true, chain: existing.chain, outcome: 'same' };
  const copy = { ...parsed.chain, id: newChainId() };
  await saveChain(db, copy);
  return { ok: true, chain: copy, outcome: 'copy' };
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
      const parsed = parseChain(await file.text());
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

/** Default texts for a chain's inputs from `meta.inputFiles` (input name → file under public/demo). */
export async function loadInputFiles(chain: Chain): Promise<Record<string, string>> {
  const files = chain.meta?.inputFiles;
  if (!files || typeof files !== 'object') return {};
  const out: Record<string, string> = {};
  await Promise.all(
    Object.entries(files as Record<string, unknown>).map(async ([name, file]) => {
      if (typeof file !== 'string' || file.includes('..')) return;
      const response = await fetch(demoUrl(file));
      if (response.ok) out[name] = await response.text();
    }),
  );
  return out;
}
