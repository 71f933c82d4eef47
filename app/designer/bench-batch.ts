import { runEval, type Dataset, type EvalProgress } from '../../src/eval/index.ts';
import { createProviderForProfile, demoProfile, runModelSettings } from '../../src/providers/profiles.ts';
import { loadTokenCounter } from '../../src/providers/index.ts';
import { parseChain } from '../../src/chain/parse.ts';
import { stepRegistry } from '../../src/steps/index.ts';
import { createMemoryRunRepository } from '../../src/trace/index.ts';
import { PROGRESS_MS } from '../evaluate/eval-batch.ts';
import type { InteractionHold } from '../evaluate/interaction-hold.ts';

/**
 * The bench's batch (bench-eval.ts), in the eval worker like a real one: N items of the given
 * chain on the demo model through the engine's pool, progress throttled as the Evaluate view's
 * is, held back while the canvas moves as a real batch is. Runs go to memory, not IndexedDB: a
 * bench leaves no trace. It loops until the page closes, so the whole measurement happens during a batch.
 */
export async function runBenchBatch(request: { chainText: string; document: string; items: number }, onProgress: (progress: EvalProgress) => void, hold?: InteractionHold): Promise<never> {
  const parsed = parseChain(request.chainText, stepRegistry);
  if (!parsed.ok) throw new Error('the bench chain does not parse');
  const dataset: Dataset = {
    items: Array.from({ length: request.items }, (_, i) => ({ id: `b${i}`, inputs: { document: request.document, question: `How many days do I have to appeal (${i})?` }, expected: { facts: ['120-day period'] } })),
  };
  const countTokens = await loadTokenCounter();
  let last = 0;
  for (let round = 0; ; round++) {
    const repo = createMemoryRunRepository();
    await runEval({
      variants: [{ name: `bench-${round}`, kind: 'chain', chain: parsed.chain }], dataset, provider: createProviderForProfile(demoProfile), model: runModelSettings(demoProfile),
      repo, registry: stepRegistry, concurrency: 4, countTokens,
      ...(hold ? { beforeItem: (signal?: AbortSignal) => hold.wait(signal) } : {}),
      onResult: async (result) => void repo.deleteRun(result.runId),
      onProgress: (progress) => {
        const now = performance.now();
        if (now - last < PROGRESS_MS) return;
        last = now;
        onProgress(progress);
      },
    });
  }
}
