import type { TraceEvent } from './events.ts';
import type { RunRepository } from './repository.ts';

/**
 * Buffers a run's events and writes them in batches. The engine calls `flush()` when a step
 * completes, so each completed step is durable before the next one starts; in between,
 * events are written at most every `intervalMs` to keep IndexedDB transactions few.
 */
export interface TraceRecorder {
  append(event: TraceEvent): void;
  flush(): Promise<void>;
}

export function createTraceRecorder(repo: RunRepository, runId: string, opts: { intervalMs?: number; onEvent?: (e: TraceEvent) => void } = {}): TraceRecorder {
  let buffer: TraceEvent[] = [];
  let writing: Promise<void> = Promise.resolve();
  let timer: ReturnType<typeof setTimeout> | null = null;
  const intervalMs = opts.intervalMs ?? 250;

  const flush = (): Promise<void> => {
    if (timer) {
      clearTimeout(timer);
      timer = null;
    }
    if (buffer.length > 0) {
      const batch = buffer;
      buffer = [];
      // Chained so batches land in order even when a write is slow.
      writing = writing.then(() => repo.appendEvents(runId, batch));
    }
    return writing;
  };

  return {
    append(event) {
      buffer.push(event);
      opts.onEvent?.(event);
      if (!timer && intervalMs > 0) timer = setTimeout(() => void flush().catch(() => undefined), intervalMs);
    },
    flush,
  };
}
