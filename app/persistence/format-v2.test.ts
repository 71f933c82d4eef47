import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { Dexie } from 'dexie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatV2 } from '../../src/testing/index.ts';
import type { RunFile } from '../../src/trace/index.ts';
import { loadChain, loadChainRecord } from './chains.ts';
import { SeamscopeDb } from './db.ts';
import { createDexieRunRepository } from './run-repository.ts';

/**
 * The browser database's load path under a version 2 of both formats (src/testing/format-v2.ts):
 * a chain and a run stored by a version 1 Seamscope read back migrated, and the stored rows
 * stay exactly as they were (a read never rewrites; the next save writes the migrated chain).
 */
// The factories load format-v2.ts itself, not the testing index: the index reaches
// chain/versions.ts through its fixtures, and a factory that loads the module it replaces hangs.
/* eslint-disable boundaries/entry-point */
vi.mock('../../src/chain/versions.ts', async () => (await import('../../src/testing/format-v2.ts')).formatV2.chainModule);
vi.mock('../../src/trace/versions.ts', async () => (await import('../../src/testing/format-v2.ts')).formatV2.traceModule);
/* eslint-enable boundaries/entry-point */

const fixture = (name: string) => readFileSync(new URL(`../../src/testing/fixtures/format-v1/${name}`, import.meta.url), 'utf8');
const names: string[] = [];
afterEach(async () => {
  for (const name of names.splice(0)) await Dexie.delete(name);
});

describe('the library and stored runs under a version 2 format', () => {
  it('read a version 1 chain and run migrated, leaving what is stored alone', async () => {
    const name = `format-v2-${names.length}`;
    names.push(name);
    const db = new SeamscopeDb(name);
    const v1Chain = JSON.parse(fixture('summarise.chain.json')) as Record<string, unknown> & { id: string; name: string };
    const v1Run = JSON.parse(fixture('summarise.run.json')) as RunFile;
    await db.chains.put({ id: v1Chain.id, name: v1Chain.name, updatedAt: 1, revision: 'v1', chain: v1Chain as never });
    await db.runs.put(v1Run.run);
    await db.events.bulkAdd(v1Run.events.map((event) => ({ runId: v1Run.run.id, event })));

    const chain = await loadChain(db, v1Chain.id);
    expect(chain).toEqual(JSON.parse(JSON.stringify(formatV2.upgradedChain(v1Chain))));
    expect((await loadChainRecord(db, v1Chain.id))?.revision).toBe('v1');

    const repo = createDexieRunRepository(db);
    const run = await repo.getRun(v1Run.run.id);
    expect(run).toMatchObject({ traceVersion: 2, model: 'seamscope-demo-1', chain: { version: 2 } });
    expect((await repo.listRuns({ chainId: v1Chain.id })).map((r) => r.model)).toEqual(['seamscope-demo-1']);
    const events = await repo.getEvents(v1Run.run.id);
    expect(events).toHaveLength(v1Run.events.length);
    expect(events.filter((e) => e.type === 'step.finished').every((e) => typeof e.latencyMs === 'number' && !('durationMs' in e))).toBe(true);

    // Nothing stored changed on the way out.
    expect((await db.chains.get(v1Chain.id))?.chain).toEqual(v1Chain);
    expect(await db.runs.get(v1Run.run.id)).toEqual(v1Run.run);
  });

  it('a stored chain from a newer Seamscope is refused with its name', async () => {
    const name = `format-v2-${names.length}`;
    names.push(name);
    const db = new SeamscopeDb(name);
    const newer = { ...(JSON.parse(fixture('summarise.chain.json')) as Record<string, unknown>), id: 'newer', version: 3 };
    await db.chains.put({ id: 'newer', name: 'From the future', updatedAt: 1, revision: 'x', chain: newer as never });
    await expect(loadChain(db, 'newer')).rejects.toThrow('The stored chain "From the future" cannot be read ($.version: the file is format version 3, made by a newer Seamscope; this one reads up to version 2).');
  });
});
