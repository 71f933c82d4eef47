import { describe, expect, it } from 'vitest';
import { holdRunLease, liveRunIds } from './run-lease.ts';

/** The parts of the Web Locks API the lease uses: exclusive locks, ifAvailable, query. */
function fakeLocks() {
  const held = new Map<string, true>();
  return {
    async request(name: string, options: LockOptions, callback: LockGrantedCallback<unknown>) {
      if (held.has(name) && options.ifAvailable) return callback(null);
      held.set(name, true);
      try {
        return await callback({ name, mode: 'exclusive' } as Lock);
      } finally {
        held.delete(name);
      }
    },
    async query() {
      return { held: [...held.keys(), 'someone-else'].map((name) => ({ name, mode: 'exclusive' as const })), pending: [] };
    },
  } as unknown as Pick<LockManager, 'request' | 'query'>;
}

describe('run leases', () => {
  it('a running run is live until its lease is released', async () => {
    const locks = fakeLocks();
    const release = await holdRunLease('run-1', locks);
    expect([...(await liveRunIds(locks))!]).toEqual(['run-1']);
    release();
    await new Promise((r) => setTimeout(r, 0));
    expect([...(await liveRunIds(locks))!]).toEqual([]);
  });

  it('refuses a second lease on the same run (it is going in another tab)', async () => {
    const locks = fakeLocks();
    const release = await holdRunLease('run-1', locks);
    await expect(holdRunLease('run-1', locks)).rejects.toThrow('already going in another tab');
    release();
  });

  it('without Web Locks nobody can tell, and a lease is a no-op', async () => {
    expect(await liveRunIds(null)).toBeNull();
    const release = await holdRunLease('run-1', null);
    expect(() => release()).not.toThrow();
  });
});
