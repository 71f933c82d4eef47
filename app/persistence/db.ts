import { Dexie, type EntityTable, type Transaction } from 'dexie';
import type { Chain } from '../../src/chain/index.ts';
import type { EndpointProfile } from '../../src/providers/index.ts';
import type { RunMeta, TraceEvent } from '../../src/trace/index.ts';
import type { DatasetItem, EvalVariant, ItemResult, ScorerSpec } from '../../src/eval/index.ts';

/**
 * The browser database. Only indexed fields are named in `stores()`; every other field is
 * stored as is. Each schema change is a new `db.version(n)` (with an upgrader when data has
 * to change), never an edit of an earlier version.
 */

export interface ChainRecord {
  id: string;
  name: string;
  updatedAt: number;
  /** Content hash of `chain`, so a run can tell which revision it ran. */
  revision: string;
  chain: Chain;
}

export type RunRecord = RunMeta;

export interface EventRecord {
  /** Auto-increment: the global append order, so `[runId+seq]` reads a run's events in order. */
  seq: number;
  runId: string;
  event: TraceEvent;
}

export type ProfileRecord = EndpointProfile;

/**
 * A saved state of a chain, for the revision history. Autosave keeps at most one per chain per
 * minute (the last state in that minute) and the newest 100 per chain.
 */
export interface RevisionRecord {
  /** Auto-increment. */
  id?: number;
  chainId: string;
  /** When this minute's window opened, and when it was last written. */
  openedAt: number;
  savedAt: number;
  /** Content hash of `chain`. */
  revision: string;
  name: string;
  chain: Chain;
}

/** API keys live alone in this table: never in chains, runs, exports or profiles. */
export interface SecretRecord {
  profileId: string;
  apiKey: string;
}

/** An imported dataset: its items live apart (datasetItems), so a list of datasets loads fast. */
export interface DatasetRecord {
  id: string;
  name: string;
  fileName: string;
  items: number;
  scorers?: ScorerSpec[];
  importedAt: number;
}

export interface DatasetItemRecord {
  datasetId: string;
  /** The item's place in the file, so items read back in file order. */
  index: number;
  item: DatasetItem;
}

/** One batch: what runs over which dataset; each finished item is an evalResults row. */
export interface EvalRecord {
  id: string;
  datasetId: string;
  variants: EvalVariant[];
  profileId: string;
  concurrency: number;
  status: 'running' | 'finished' | 'cancelled';
  startedAt: number;
  finishedAt?: number;
}

export interface EvalResultRecord {
  evalId: string;
  /** resultKey(variant, item id). */
  key: string;
  result: ItemResult;
  /** A reviewer's mark on a flagged (abstained or escalated) item: could it have been answered? */
  review?: { answerable: boolean; at: number };
}

/**
 * One schema version: its stores (only what changed) and, when data must change, its upgrader.
 * Listed as data so tests and the upgrade battery can open the real schema at an older version,
 * or with an upgrader that fails, exactly as an older app or a failed deploy would.
 */
export interface DbVersion {
  version: number;
  stores: Record<string, string | null>;
  upgrade?: (tx: Transaction) => Promise<void>;
}

export const DB_VERSIONS: readonly DbVersion[] = [
  {
    version: 1,
    stores: {
      chains: 'id, name, updatedAt, revision',
      runs: 'id, chainId, startedAt, status',
      events: '++seq, runId, [runId+seq]',
      profiles: 'id',
      secrets: 'profileId',
    },
  },
  // Version 2 adds revision history. Every chain and run is kept; each chain's current state
  // becomes its first revision, so history starts from what was there before the upgrade.
  {
    version: 2,
    stores: { revisions: '++id, chainId, [chainId+savedAt]' },
    upgrade: async (tx) => {
      const chains = (await tx.table('chains').toArray()) as ChainRecord[];
      await tx.table('revisions').bulkAdd(chains.map((c): RevisionRecord => ({
        chainId: c.id, openedAt: c.updatedAt, savedAt: c.updatedAt, revision: c.revision, name: c.name, chain: c.chain,
      })));
    },
  },
  // Version 3 adds datasets and evaluations. Nothing existing changes, so no upgrader.
  {
    version: 3,
    stores: {
      datasets: 'id, name, importedAt',
      datasetItems: '[datasetId+index], datasetId',
      evals: 'id, datasetId, startedAt, status',
      evalResults: '[evalId+key], evalId',
    },
  },
];

/** The version the app opens. */
export const DB_VERSION = DB_VERSIONS[DB_VERSIONS.length - 1]?.version ?? 1;

export class SeamscopeDb extends Dexie {
  chains!: EntityTable<ChainRecord, 'id'>;
  runs!: EntityTable<RunRecord, 'id'>;
  events!: EntityTable<EventRecord, 'seq'>;
  profiles!: EntityTable<ProfileRecord, 'id'>;
  secrets!: EntityTable<SecretRecord, 'profileId'>;
  revisions!: EntityTable<RevisionRecord, 'id'>;
  datasets!: EntityTable<DatasetRecord, 'id'>;
  datasetItems!: Dexie.Table<DatasetItemRecord, [string, number]>;
  evals!: EntityTable<EvalRecord, 'id'>;
  evalResults!: Dexie.Table<EvalResultRecord, [string, string]>;

  /** `versions` is for tests: the app always opens every version in DB_VERSIONS. */
  constructor(name = 'seamscope', versions: readonly DbVersion[] = DB_VERSIONS) {
    super(name);
    // Nothing here uses liveQuery. Dexie's observability would record every key each write
    // touches and post it, after every write transaction, to every tab and worker of the origin:
    // an eval batch writing a transaction per finished step would make the tab's main thread
    // receive and walk one message per step. Tabs sync through chain-events.ts instead.
    this.unuse({ stack: 'dbcore', name: 'Observability' });
    for (const v of versions) {
      const declared = this.version(v.version).stores(v.stores);
      if (v.upgrade) declared.upgrade(v.upgrade);
    }
  }
}

export const db = new SeamscopeDb();
