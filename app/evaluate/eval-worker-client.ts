import type { EvalProgress } from '../../src/eval/index.ts';
import { onCanvasMoving } from '../canvas/canvas-activity.ts';
import type { EvalWorkerRequest, EvalWorkerResponse } from './eval-worker-protocol.ts';

/**
 * How long one report of canvas motion holds new items back, and how often it is re-sent while
 * the motion goes on. The hold outlasts a slow frame (on a loaded machine frames, and so the
 * reports, can come a few hundred ms apart), and lapses within a second after the motion stops.
 */
export const HOLD_MS = 1_000;
export const HOLD_RESEND_MS = 250;

/**
 * Starts one batch in its own eval worker (eval.worker.ts). `finished` settles when the worker
 * says the batch ended (or failed); the worker is then terminated. `cancel` asks the batch to
 * stop: runs in flight end as cancelled and run again on resume. While the batch runs, canvas
 * motion is passed on as holds (a few messages a second, only while something moves).
 */
export function startEvalWorker(
  request: Extract<EvalWorkerRequest, { type: 'start' | 'bench' }>,
  handlers: { onProgress(progress: EvalProgress): void },
): { finished: Promise<{ cancelled: boolean }>; cancel(): void } {
  const worker = new Worker(new URL('./eval.worker.ts', import.meta.url), { type: 'module', name: 'seamscope-eval' });
  let lastHold = -Infinity;
  const stopHolds = onCanvasMoving(() => {
    const now = performance.now();
    if (now - lastHold < HOLD_RESEND_MS) return;
    lastHold = now;
    worker.postMessage({ type: 'hold', ms: HOLD_MS } satisfies EvalWorkerRequest);
  });
  const end = () => {
    stopHolds();
    worker.terminate();
  };
  const finished = new Promise<{ cancelled: boolean }>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<EvalWorkerResponse>) => {
      const message = event.data;
      if (message.type === 'progress') return handlers.onProgress(message.progress);
      end();
      if (message.type === 'done') resolve({ cancelled: message.cancelled });
      else reject(new Error(message.message));
    };
    worker.onerror = (event) => {
      end();
      reject(new Error(event.message || 'the eval worker failed to start'));
    };
  });
  worker.postMessage(request);
  return { finished, cancel: () => worker.postMessage({ type: 'cancel' } satisfies EvalWorkerRequest) };
}
