import type { EvalProgress } from '../../src/eval/index.ts';
import type { EvalWorkerRequest, EvalWorkerResponse } from './eval-worker-protocol.ts';

/**
 * Starts one batch in its own eval worker (eval.worker.ts). `finished` settles when the worker
 * says the batch ended (or failed); the worker is then terminated. `cancel` asks the batch to
 * stop: runs in flight end as cancelled and run again on resume.
 */
export function startEvalWorker(
  request: Exclude<EvalWorkerRequest, { type: 'cancel' }>,
  handlers: { onProgress(progress: EvalProgress): void },
): { finished: Promise<{ cancelled: boolean }>; cancel(): void } {
  const worker = new Worker(new URL('./eval.worker.ts', import.meta.url), { type: 'module', name: 'seamscope-eval' });
  const finished = new Promise<{ cancelled: boolean }>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<EvalWorkerResponse>) => {
      const message = event.data;
      if (message.type === 'progress') return handlers.onProgress(message.progress);
      worker.terminate();
      if (message.type === 'done') resolve({ cancelled: message.cancelled });
      else reject(new Error(message.message));
    };
    worker.onerror = (event) => {
      worker.terminate();
      reject(new Error(event.message || 'the eval worker failed to start'));
    };
  });
  worker.postMessage(request);
  return { finished, cancel: () => worker.postMessage({ type: 'cancel' } satisfies EvalWorkerRequest) };
}
