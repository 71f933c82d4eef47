/**
 * Which runs a tab is running right now, visible to every tab of the origin, with the Web Locks
 * API: the running tab holds a lock named after the run for as long as the run goes, and the
 * browser releases it when the run ends or the tab dies (closed, crashed, reloaded). At start-up
 * a run still marked `running` is interrupted only if nobody holds its lock — a run going on in
 * another tab is left alone. Without Web Locks (old browsers), every such run counts as
 * interrupted, as before.
 */
const PREFIX = 'seamscope-run:';

type Locks = Pick<LockManager, 'request' | 'query'>;

const locks = (): Locks | null => (globalThis.navigator as Navigator | undefined)?.locks ?? null;

/** Takes the run's lock; the returned function releases it. Resolves once the lock is held. */
export async function holdRunLease(runId: string, manager: Locks | null = locks()): Promise<() => void> {
  if (!manager) return () => undefined;
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  await new Promise<void>((acquired, failed) => {
    manager
      .request(PREFIX + runId, { mode: 'exclusive', ifAvailable: true }, (lock) => {
        if (!lock) {
          failed(new Error('this run is already going in another tab'));
          return undefined;
        }
        acquired();
        return released;
      })
      .catch(failed);
  });
  return release;
}

/** Ids of runs some tab of this origin is running now (null: the browser cannot tell). */
export async function liveRunIds(manager: Locks | null = locks()): Promise<ReadonlySet<string> | null> {
  if (!manager) return null;
  const { held = [] } = await manager.query();
  return new Set(held.map((l) => l.name ?? '').filter((n) => n.startsWith(PREFIX)).map((n) => n.slice(PREFIX.length)));
}
