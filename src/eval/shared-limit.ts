import { ProviderError } from '../providers/errors.ts';
import type { ModelProvider } from '../providers/types.ts';

/**
 * One endpoint's rate limit, shared by every run of a batch. Each run still retries its own
 * call (the engine's transport policy), but when any call is told to slow down (429, or a
 * Retry-After), every other call of the batch waits out the same pause instead of hitting the
 * limit again: eight runs at once each discovering the limit would multiply the 429s by eight.
 */
export interface SharedLimit {
  provider: ModelProvider;
  /** How many times a call was held back by a pause another call learned of. */
  readonly held: number;
}

const DEFAULT_PAUSE_MS = 1_000;
const MAX_PAUSE_MS = 60_000;

export function shareRateLimit(inner: ModelProvider, opts: {
  now?: () => number; sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Told of each pause as it is learned (a queue worker passes it on to every worker of its endpoint). */
  onPause?: (ms: number) => void;
} = {}): SharedLimit {
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? ((ms, signal) => new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => { clearTimeout(timer); resolve(); }, { once: true });
  }));
  let pausedUntil = 0;
  let held = 0;
  const provider: ModelProvider = {
    kind: inner.kind,
    ...(inner.scrubber ? { scrubber: inner.scrubber } : {}),
    async call(request, ctx) {
      const wait = pausedUntil - now();
      if (wait > 0) {
        held++;
        await sleep(wait, ctx.signal);
      }
      try {
        return await inner.call(request, ctx);
      } catch (error) {
        if (error instanceof ProviderError && (error.status === 429 || error.code === 'rate_limited')) {
          const pause = Math.min(error.retryAfterMs ?? DEFAULT_PAUSE_MS, MAX_PAUSE_MS);
          pausedUntil = Math.max(pausedUntil, now() + pause);
          opts.onPause?.(pause);
        }
        throw error;
      }
    },
  };
  return { provider, get held() { return held; } };
}
