import { startEvalWorker } from '../evaluate/eval-worker-client.ts';
import { useEvalStore } from '../evaluate/eval-store.ts';

/**
 * `/?bench&…&eval=N` (scripts/bench-canvas.ts, "during an eval"): a batch of N items of the
 * summarise demo on the demo model runs while the harness pans, in the same eval worker the
 * Evaluate view uses (bench-batch.ts), its progress reaching the store as a real batch's does.
 * `onRunning` is called once, with the first progress (the first results are in).
 */
export async function runBenchEval(items: number, onRunning: () => void): Promise<void> {
  const [chainText, document] = await Promise.all([
    fetch('/demo/summarise-then-answer.chain.json').then((r) => r.text()),
    fetch('/demo/documents/42-USC-1395ff.md').then((r) => r.text()),
  ]);
  let running = false;
  await startEvalWorker({ type: 'bench', chainText, document, items }, {
    onProgress: (progress) => {
      useEvalStore.getState().setRunning({ evalId: 'bench', progress });
      if (!running) {
        running = true;
        onRunning();
      }
    },
  }).finished;
}
