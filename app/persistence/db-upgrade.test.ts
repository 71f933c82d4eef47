import 'fake-indexeddb/auto';
import { Dexie } from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { hashValue } from '../../src/chain/index.ts';
import { restoreChain } from '../../src/chain/parse.ts';
import { routedChain, twoStepChain } from '../../src/testing/index.ts';
import { deleteChain, listRevisions, loadRevision, undeleteChain, saveChain, saveChainChecked, REVISION_WINDOW_MS } from './chains.ts';
import { DB_VERSION, SeamscopeDb } from './db.ts';
import { stepRegistry } from '../../src/steps/index.ts';

let counter = 0;
const names: string[] = [];
const freshName = () => {
  const name = `upgrade-${++counter}`;
  names.push(name);
  return name;
};
afterEach(async () => {
  for (const name of names.splice(0)) await Dexie.delete(name);
});

/** A database exactly as version 1 of the app left it (same stores, same record shapes). */
async function versionOneFixture(name: string) {
  const v1 = new Dexie(name);
  v1.version(1).stores({
    chains: 'id, name, updatedAt, revision',
    runs: 'id, chainId, startedAt, status',
    events: '++seq, runId, [runId+seq]',
    profiles: 'id',
    secrets: 'profileId',
  });
  const a = twoStepChain();
  const b = routedChain();
  await v1.table('chains').bulkPut([
    { id: a.id, name: a.name, updatedAt: 100, revision: hashValue(a), chain: a },
    { id: b.id, name: b.name, updatedAt: 200, revision: hashValue(b), chain: b },
  ]);
  await v1.table('runs').put({ id: 'run-1', traceVersion: 1, chainId: a.id, chainName: a.name, chainRevision: hashValue(a), chain: a, inputs: {}, provider: 'demo', model: 'm', status: 'succeeded', startedAt: 5 });
  await v1.table('events').bulkAdd([
    { runId: 'run-1', event: { type: 'run.started', at: 5 } },
    { runId: 'run-1', event: { type: 'step.started', at: 6, stepId: 'extract' } },
  ]);
  await v1.table('profiles').put({ id: 'p1', name: 'Mine', kind: 'openai', baseUrl: 'http://x/v1', model: 'm' });
  await v1.table('secrets').put({ profileId: 'p1', apiKey: 'sk-kept' });
  v1.close();
  return { a, b };
}

describe('database version 2 (revision history)', () => {
  it('upgrades a version-1 database keeping every chain, run, event, profile and key, and seeds one revision per chain', async () => {
    const name = freshName();
    const { a, b } = await versionOneFixture(name);
    const db = new SeamscopeDb(name);
    await db.open();
    expect(db.verno).toBe(DB_VERSION);
    expect((await db.chains.toArray()).map((c) => c.chain)).toEqual([b, a].sort((x, y) => x.id.localeCompare(y.id)));
    expect(await db.runs.count()).toBe(1);
    expect((await db.events.where('runId').equals('run-1').toArray()).map((e) => e.seq)).toEqual([1, 2]);
    expect(await db.secrets.get('p1')).toEqual({ profileId: 'p1', apiKey: 'sk-kept' });
    const revisions = await listRevisions(db, a.id);
    expect(revisions).toHaveLength(1);
    expect(revisions[0]).toMatchObject({ chainId: a.id, savedAt: 100, revision: hashValue(a) });
    // The stored revision is the chain as it was; read back, it is the chain as a file import reads it.
    expect((await db.revisions.get(revisions[0]!.id!))?.chain).toEqual(a);
    expect((await loadRevision(db, revisions[0]!.id!))?.chain).toEqual(restoreChain(a, stepRegistry).ok && (restoreChain(a, stepRegistry) as { chain: unknown }).chain);
    db.close();
  });

  it('keeps one revision per minute window and refuses a save that would overwrite another tab', async () => {
    const db = new SeamscopeDb(freshName());
    const a = twoStepChain();
    await saveChain(db, a, 1000);
    await saveChain(db, { ...a, name: 'v2' }, 1000 + 10_000);
    await saveChain(db, { ...a, name: 'v3' }, 1000 + 20_000);
    await saveChain(db, { ...a, name: 'v4' }, 1000 + 10_000 + REVISION_WINDOW_MS + 1);
    // The first state is kept; v2 and v3 were one burst; v4 came more than a minute later.
    expect((await listRevisions(db, a.id)).map((r) => r.name)).toEqual(['v4', 'v3', 'Two step']);

    const base = hashValue({ ...a, name: 'v4' });
    await saveChain(db, { ...a, name: 'other tab' }, 200_000);
    const refused = await saveChainChecked(db, { ...a, name: 'this tab' }, base, 200_001);
    expect(refused.conflict).toBe(true);
    expect((await db.chains.get(a.id))?.name).toBe('other tab');
    const accepted = await saveChainChecked(db, { ...a, name: 'this tab' }, hashValue({ ...a, name: 'other tab' }), 200_002);
    expect(accepted.conflict).toBe(false);
    db.close();
  });

  it('saves inside a caller\'s transaction without the revisions table, adding the revision after it commits', async () => {
    const db = new SeamscopeDb(freshName());
    const a = twoStepChain();
    await db.transaction('rw', db.chains, db.runs, async () => {
      await saveChain(db, a, 5);
    });
    await new Promise((r) => setTimeout(r, 50));
    expect((await db.chains.get(a.id))?.chain).toEqual(a);
    expect(await listRevisions(db, a.id)).toHaveLength(1);
    db.close();
  });

  it('deletes a chain with its runs, events and revisions, and restores all of it', async () => {
    const name = freshName();
    const { a } = await versionOneFixture(name);
    const db = new SeamscopeDb(name);
    const snapshot = await deleteChain(db, a.id);
    expect(await db.chains.get(a.id)).toBeUndefined();
    expect(await db.events.count()).toBe(0);
    expect(await db.revisions.where('chainId').equals(a.id).count()).toBe(0);
    await undeleteChain(db, snapshot!);
    expect((await db.chains.get(a.id))?.chain).toEqual(a);
    expect(await db.runs.get('run-1')).toBeDefined();
    expect((await db.events.toArray()).map((e) => e.seq)).toEqual([1, 2]);
    expect(await db.revisions.where('chainId').equals(a.id).count()).toBe(1);
    db.close();
  });
});
