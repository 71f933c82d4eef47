/// <reference lib="webworker" />
import '../../src/zod-jitless.ts';
import type { EvalWorkerRequest, EvalWorkerResponse } from './eval-worker-protocol.ts';
import { createInteractionHold } from './interaction-hold.ts';

// A batch off the tab's main thread (eval-batch.ts says why). The engine is imported only
// after zod is made jitless (src/zod-jitless.ts): a static import could be evaluated first.
// One batch per worker: the tab starts a worker for a batch and ends it when the batch ends.
const controller = new AbortController();
// While the tab's canvas moves, no new item starts (interaction-hold.ts says why).
const hold = createInteractionHold();
const post = (message: EvalWorkerResponse) => self.postMessage(message);
async function handle(request: EvalWorkerRequest): Promise<void> {
  try {
    if (request.type === 'start') {
      const [{ runStoredEval }, { openDb, getRunRepository }] = await Promise.all([import('./eval-batch.ts'), import('../persistence/connection.ts')]);
      const { cancelled } = await runStoredEval(await openDb(), await getRunRepository(), request.job, controller.signal, (progress) => post({ type: 'progress', progress }), hold);
      post({ type: 'done', cancelled });
    } else if (request.type === 'bench') {
      const { runBenchBatch } = await import('../designer/bench-batch.ts');
      await runBenchBatch(request, (progress) => post({ type: 'progress', progress }), hold);
    }
  } catch (error) {
    post({ type: 'error', message: (error as Error)?.message ?? String(error) });
  }
}

let started = false;
self.onmessage = (event: MessageEvent<EvalWorkerRequest>) => {
  if (event.data.type === 'cancel') controller.abort();
  else if (event.data.type === 'hold') hold.extend(event.data.ms);
  else if (!started) {
    started = true;
    void handle(event.data);
  }
};
