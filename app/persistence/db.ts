import { Dexie, type EntityTable } from 'dexie';
import type { Chain } from '../../src/chain/schema.ts';
import type { EndpointProfile } from '../../src/providers/profiles.ts';
import type { RunMeta, TraceEvent } from '../../src/trace/events.ts';

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

/** API keys live alone in this table: never in chains, runs, exports or profiles. */
export interface SecretRecord {
  profileId: string;
  apiKey: string;
}

export class SeamscopeDb extends Dexie {
  chains!: EntityTable<ChainRecord, 'id'>;
  runs!: EntityTable<RunRecord, 'id'>;
  events!: EntityTable<EventRecord, 'seq'>;
  profiles!: EntityTable<ProfileRecord, 'id'>;
  secrets!: EntityTable<SecretRecord, 'profileId'>;

  constructor(name = 'seamscope') {
    super(name);
    this.version(1).stores({
      chains: 'id, name, updatedAt, revision',
      runs: 'id, chainId, startedAt, status',
      events: '++seq, runId, [runId+seq]',
      profiles: 'id',
      secrets: 'profileId',
    });
  }
}

export const db = new SeamscopeDb();
