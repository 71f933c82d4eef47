// Before Dexie loads: the suite runs in Node on fake-indexeddb, the app's real schema on top.
import 'fake-indexeddb/auto';
import { Dexie, type Transaction } from 'dexie';
import { hashValue } from '../../src/chain/index.ts';
import type { Chain } from '../../src/chain/index.ts';
import { routedChain, twoStepChain } from '../../src/testing/index.ts';
import { CaseClock, withTimeout, type BatterySuite, type SuiteOptions, type SuiteResult } from '../../src/testing/index.ts';
import { DB_VERSION, DB_VERSIONS, SeamscopeDb, type DbVersion } from '../persistence/db.ts';

/**
 * B3: the app's database (app/persistence/db.ts) opened at its first version with 10,000
 * records across its tables, then upgraded to the current version: every record must be there,
 * byte for byte. Then upgrades that throw part way (the real v2 upgrader followed by a throw;
 * a next version that rewrites or clears a table and throws): the open must fail, and the data
 * must still open, unchanged, at the version it had.
 */
const TABLES = ['chains', 'runs', 'events', 'profiles', 'secrets'] as const;
type Snapshot = Record<(typeof TABLES)[number], Map<string, string>>;

function mix(total: number) {
  // Proportions of a well-used database: most rows are trace events.
  const chains = Math.round(total * 0.04);
  const profiles = Math.round(total * 0.04);
  const runs = Math.round(total * 0.16);
  return { chains, profiles, secrets: profiles, runs, events: total - chains - 2 * profiles - runs };
}

function chainNo(i: number): Chain {
  const base = i % 2 === 0 ? twoStepChain({ retries: i % 3 }) : routedChain();
  return { ...base, id: `chain-${i}`, name: `Chain ${i} — «${'é'.repeat(i % 5)}» \u{1F680}` };
}

async function fill(name: string, total: number): Promise<void> {
  const db = new SeamscopeDb(name, DB_VERSIONS.slice(0, 1));
  await db.open();
  const n = mix(total);
  const chains = Array.from({ length: n.chains }, (_, i) => {
    const chain = chainNo(i);
    return { id: chain.id, name: chain.name, updatedAt: 1_000 + i, revision: hashValue(chain), chain };
  });
  const runs = Array.from({ length: n.runs }, (_, i) => {
    const chain = chains[i % chains.length] as (typeof chains)[number];
    return { id: `run-${i}`, traceVersion: 1, chainId: chain.id, chainName: chain.name, chainRevision: chain.revision, chain: chain.chain, inputs: { document: `doc ${i}`, question: 'How many days?' }, provider: 'demo', model: 'demo', status: i % 7 === 0 ? 'failed' : 'succeeded', startedAt: 10_000 + i, finishedAt: 10_050 + i, output: { answer: `${i} days` } };
  });
  const events = Array.from({ length: n.events }, (_, i) => ({
    runId: `run-${i % n.runs}`,
    event: i % 3 === 0
      ? { type: 'step.started', at: i, stepId: 'extract' }
      : { type: 'step.finished', at: i, stepId: i % 2 ? 'answer' : 'extract', status: 'succeeded', output: { facts: [`fact ${i}`, '180 days'] }, latencyMs: i % 400 },
  }));
  const profiles = Array.from({ length: n.profiles }, (_, i) => ({ id: `p${i}`, name: `Profile ${i}`, kind: i % 2 ? 'openai' : 'anthropic', baseUrl: `http://127.0.0.1:${9000 + i}/v1`, model: 'm' }));
  const secrets = profiles.map((p, i) => ({ profileId: p.id, apiKey: `sk-test-${i}` }));
  await db.table('chains').bulkAdd(chains);
  await db.table('runs').bulkAdd(runs);
  await db.table('events').bulkAdd(events);
  await db.table('profiles').bulkAdd(profiles);
  await db.table('secrets').bulkAdd(secrets);
  db.close();
}

async function snapshot(db: Dexie): Promise<Snapshot> {
  const out = {} as Snapshot;
  for (const table of TABLES) {
    const t = db.table(table);
    const key = t.schema.primKey.keyPath as string;
    out[table] = new Map((await t.toArray()).map((row: Record<string, unknown>) => [String(row[key]), JSON.stringify(row)]));
  }
  return out;
}

/** Records of `before` missing or changed in `after`. */
function lost(before: Snapshot, after: Snapshot): number {
  let n = 0;
  for (const table of TABLES) for (const [key, row] of before[table]) if (after[table].get(key) !== row) n++;
  return n;
}

const count = (s: Snapshot) => TABLES.reduce((n, t) => n + s[t].size, 0);

/** Opens the real schema at `versions`; the open must fail. Returns the error's name. */
async function openMustFail(name: string, versions: readonly DbVersion[]): Promise<string | null> {
  const db = new SeamscopeDb(name, versions);
  try {
    await withTimeout(db.open(), 60_000, 'a failing upgrade');
    return null;
  } catch (error) {
    return (error as Error).name;
  } finally {
    db.close();
  }
}

async function openAt(name: string, versions: readonly DbVersion[]): Promise<{ verno: number; data: Snapshot; revisions: number }> {
  const db = new SeamscopeDb(name, versions);
  await withTimeout(db.open(), 60_000, 'the upgrade');
  const data = await snapshot(db);
  const revisions = db.tables.some((t) => t.name === 'revisions') ? await db.table('revisions').count() : -1;
  const verno = db.verno;
  db.close();
  return { verno, data, revisions };
}

const v1 = DB_VERSIONS.slice(0, 1);
const realV2 = DB_VERSIONS[1] as DbVersion;

/** The real v2 upgrader, then a throw once it has written and half of the chains were rewritten. */
const v2ThatThrows: DbVersion = {
  ...realV2,
  upgrade: async (tx: Transaction) => {
    await realV2.upgrade?.(tx);
    const chains = await tx.table('chains').toArray();
    await tx.table('chains').bulkPut(chains.slice(0, chains.length / 2).map((c) => ({ ...c, name: 'rewritten' })));
    throw new Error('upgrade failed midway (battery)');
  },
};

const nextThat = (what: 'rewrites' | 'clears'): DbVersion => ({
  version: DB_VERSION + 1,
  stores: { events: '++seq, runId, [runId+seq], at' },
  upgrade: async (tx) => {
    if (what === 'clears') await tx.table('events').clear();
    else await tx.table('events').toCollection().modify((row: { event: { at: number } }) => void (row.event.at = -1));
    throw new Error(`upgrade ${what} events, then fails (battery)`);
  },
});

export const b3DexieUpgrades: BatterySuite = {
  id: 'B3',
  title: 'Database upgrades',
  target: 'Dexie upgrades over 10,000 stored records, 0 lost; a failed upgrade leaves the old data readable',
  async run(opts: SuiteOptions = {}): Promise<SuiteResult> {
    const total = opts.quick ? 2_000 : 10_000;
    const clock = new CaseClock();
    const failures: string[] = [];
    const name = `battery-b3-${Date.now()}`;
    let cases = 0;
    let definedEnd = 0;
    let dataLost = 0;
    let failedOpensRefused = 0;
    let recordsVerified = 0;
    const step = async (label: string, fn: () => Promise<void>) => {
      cases++;
      try {
        await clock.time(fn);
        definedEnd++;
      } catch (error) {
        failures.push(`${label}: ${(error as Error).message}`);
      }
    };
    try {
      await fill(name, total);
      const original = await openAt(name, v1);
      await step('the real v2 upgrader throws midway', async () => {
        const refused = await openMustFail(name, [...v1, v2ThatThrows]);
        if (refused) failedOpensRefused++;
        else failures.push('the failing v2 upgrade opened the database');
        const after = await openAt(name, v1);
        if (after.verno !== 1) failures.push(`after the failed upgrade the database is at version ${after.verno}, not 1`);
        dataLost += lost(original.data, after.data);
        recordsVerified += count(after.data);
      });
      await step(`upgrade v1 → v${DB_VERSION} over ${total} records`, async () => {
        const upgraded = await openAt(name, DB_VERSIONS);
        if (upgraded.verno !== DB_VERSION) failures.push(`opened at ${upgraded.verno}, not ${DB_VERSION}`);
        if (upgraded.revisions !== original.data.chains.size) failures.push(`${upgraded.revisions} revisions seeded for ${original.data.chains.size} chains`);
        dataLost += lost(original.data, upgraded.data);
        recordsVerified += count(upgraded.data);
      });
      for (const what of ['rewrites', 'clears'] as const) {
        await step(`v${DB_VERSION + 1} ${what} events and throws`, async () => {
          const refused = await openMustFail(name, [...DB_VERSIONS, nextThat(what)]);
          if (refused) failedOpensRefused++;
          else failures.push(`the failing v${DB_VERSION + 1} upgrade opened the database`);
          const after = await openAt(name, DB_VERSIONS);
          if (after.verno !== DB_VERSION) failures.push(`after the failed upgrade the database is at version ${after.verno}`);
          dataLost += lost(original.data, after.data);
          recordsVerified += count(after.data);
        });
      }
    } finally {
      await Dexie.delete(name);
    }
    const stored = total;
    return {
      cases, definedEnd, dataLost, networkRequests: null, codeExecuted: null,
      worstMs: clock.worstMs, worstHeapMb: clock.worstHeapMb, failures,
      checks: [
        { name: 'records stored at v1', ok: stored >= (opts.quick ? 2_000 : 10_000), detail: `${stored} across ${TABLES.length} tables` },
        { name: 'records lost or changed', ok: dataLost === 0 && recordsVerified === stored * cases, detail: `${dataLost} of ${recordsVerified} checked` },
        { name: 'failed upgrades refused, old data readable', ok: failedOpensRefused === 3 && definedEnd === cases, detail: `${failedOpensRefused}/3 refused; ${definedEnd}/${cases} scenarios ended` },
        { name: 'upgrade problems', ok: failures.length === 0, detail: `${failures.length}` },
      ],
    };
  },
};
