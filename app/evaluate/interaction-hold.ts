/**
 * The eval worker's side of "the canvas is moving" (app/canvas/canvas-activity.ts). On a
 * machine with few cores a CPU-bound batch (the offline demo model answers at once) takes a
 * whole core from the tab's frames, even from its own thread. While the tab reports motion
 * the batch starts no new item (runEval's beforeItem): items already running finish, nothing
 * inside an item waits, so no latency, timeout or result changes. A hold lapses on its own
 * `ms` after the last report (no "stopped" message to lose), and no wait lasts longer than
 * `maxWaitMs`, so a person who never stops panning still sees the batch advance.
 */
export interface InteractionHold {
  /** The tab moved its canvas: start nothing new for the next `ms`. */
  extend(ms: number): void;
  /** Settles when no hold is on, after `maxWaitMs` of holding, or at once on abort. */
  wait(signal?: AbortSignal): Promise<void>;
}

export function createInteractionHold({ maxWaitMs = 2_000, now = Date.now }: { maxWaitMs?: number; now?: () => number } = {}): InteractionHold {
  let until = 0;
  return {
    extend(ms) {
      until = Math.max(until, now() + ms);
    },
    wait(signal) {
      if (now() >= until || signal?.aborted) return Promise.resolve();
      const giveUp = now() + maxWaitMs;
      return new Promise<void>((resolve) => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const done = () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', done);
          resolve();
        };
        // A hold extended meanwhile is waited out too, up to the cap.
        const check = () => {
          const left = Math.min(until, giveUp) - now();
          if (left <= 0) done();
          else timer = setTimeout(check, left);
        };
        signal?.addEventListener('abort', done, { once: true });
        check();
      });
    },
  };
}
