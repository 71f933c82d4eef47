import type { TraceEvent } from './events.ts';
import type { RunRepository } from './repository.ts';

/**
 * Buffers a run's events and writes them in batches. The engine calls `flush()` when a step
 * completes, so each completed step is durable before the next one starts; in between,
 * events are written at most every `intervalMs` to keep IndexedDB transactions few. The
 * engine calls `close()` once the run has ended.
 */
export interface TraceRecorder {
  append(event: TraceEvent): void;
  /** Writes everything appended so far; resolves once it is durable. */
  flush(): Promise<void>;
  /** Flushes and stops the interval timer; nothing is appended after this. */
  close(): Promise<void>;
}

export function createTraceRecorder(repo: RunRepository, runId: string, opts: { intervalMs?: number; onEvent?: (e: TraceEvent) => void } = {}): TraceRecorder {
  let buffer: TraceEvent[] = [];
  let writing: Promise<void> = Promise.resolve();
  let timer: ReturnType<typeof setTimeout> | null = null;
  const intervalMs = opts.intervalMs ?? 250;

  const flush = (): Promise<void> => {
    if (buffer.length > 0) {
      const batch = buffer;
      buffer = [];
      // Chained so batches land in order even when a write is slow.
      writing = writing.then(() => repo.appendEvents(runId, batch));
    }
    return writing;
  };
  // An event waits at most one interval for a write: the timer is armed by the first event
  // appended while none is pending. An explicit flush leaves it to run out (it then finds
  // nothing, or only what came after the flush) instead of clearing it, so a map that flushes
  // after every unit arms one timer per interval rather than one per unit.
  const tick = () => {
    timer = null;
    void flush().catch(() => undefined);
  };

  return {
    append(event) {
      buffer.push(event);
      opts.onEvent?.(event);
      if (!timer && intervalMs > 0) timer = setTimeout(tick, intervalMs);
    },
    flush,
    close() {
      if (timer) {
        clearTimeout(timer);
        timer = null;
      }
      return flush();
    },
  };
}
