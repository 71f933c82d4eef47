/**
 * Tells other tabs of this app what changed in the library, over a BroadcastChannel. A tab never
 * hears its own messages (one channel object per tab), so receivers only see other tabs' writes.
 */
export type ChainEvent =
  | { type: 'saved'; chainId: string; revision: string; name: string; updatedAt: number }
  | { type: 'deleted'; chainId: string }
  /** A run of the chain started or ended in another tab: its run list is stale. */
  | { type: 'runs'; chainId: string };

const CHANNEL = 'seamscope.chains';
let channel: BroadcastChannel | null | undefined;

function open(): BroadcastChannel | null {
  if (channel === undefined) channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(CHANNEL) : null;
  return channel;
}

export function publishChainEvent(event: ChainEvent): void {
  try {
    open()?.postMessage(event);
  } catch {
    // A closed channel (page unloading) has nobody left to tell.
  }
}

/** Calls `listener` with every other tab's library change; returns the unsubscribe. */
export function onChainEvent(listener: (event: ChainEvent) => void): () => void {
  const ch = open();
  if (!ch) return () => undefined;
  const handle = (e: MessageEvent<ChainEvent>) => listener(e.data);
  ch.addEventListener('message', handle);
  return () => ch.removeEventListener('message', handle);
}
