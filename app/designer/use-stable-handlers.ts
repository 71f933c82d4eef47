import { useLayoutEffect, useState } from 'react';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Handlers = Record<string, (...args: any[]) => any>;

/** Holds the latest handlers; `stable` are wrappers created once that call them. */
class HandlerBox<T extends Handlers> {
  private latest: T;
  readonly stable: T;

  constructor(handlers: T) {
    this.latest = handlers;
    this.stable = Object.fromEntries(Object.keys(handlers).map((key) => [key, (...args: unknown[]) => this.latest[key]?.(...args)])) as T;
  }

  update(handlers: T): void {
    this.latest = handlers;
  }
}

/**
 * Stable wrappers around event handlers that always call the latest version. React Flow copies
 * each changed handler prop into its store with a separate update, and every update re-runs
 * its per-node selectors (the MiniMap alone has one per node): on a 3,000-step chain, fresh
 * closures on each render made every drag frame ~8 store updates instead of one.
 */
export function useStableHandlers<T extends Handlers>(handlers: T): T {
  const [box] = useState(() => new HandlerBox(handlers));
  useLayoutEffect(() => box.update(handlers));
  return box.stable;
}
