/**
 * Finished items' results, written in batches: one IndexedDB transaction (a bulkPut) per
 * `intervalMs` or per `maxItems`, not one per item. A batch's writes are chained, so they land
 * in order. What a crash can lose is what was added since the last write began (at most
 * `intervalMs` of results): those items run again on resume, and since their runs are already
 * stored, resuming restores them from their events instead of calling the model again.
 * A failed write is not swallowed: the next `add` throws it (which stops the batch, as a failed
 * single put did) and `flush` rejects with it.
 */
export interface WriteBatcher<T> {
  add(item: T): void;
  /** Writes what is pending; resolves once it, and every batch before it, is stored. */
  flush(): Promise<void>;
}

export function createWriteBatcher<T>(write: (items: T[]) => Promise<void>, { intervalMs = 250, maxItems = 100 } = {}): WriteBatcher<T> {
  let pending: T[] = [];
  let writing: Promise<void> = Promise.resolve();
  let failure: { error: unknown } | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const flush = (): Promise<void> => {
    if (timer) {
      clearTimeout(timer);
      timer = null;
    }
    if (pending.length > 0) {
      const batch = pending;
      pending = [];
      writing = writing.then(() => write(batch)).catch((error: unknown) => {
        failure ??= { error };
      });
    }
    return writing.then(() => {
      if (failure) throw failure.error;
    });
  };

  return {
    add(item) {
      if (failure) throw failure.error;
      pending.push(item);
      if (pending.length >= maxItems) void flush().catch(() => undefined);
      else timer ??= setTimeout(() => void flush().catch(() => undefined), intervalMs);
    },
    flush,
  };
}
