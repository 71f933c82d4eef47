import { runEval, type Dataset } from '../../src/eval/index.ts';
import { createProviderForProfile, demoProfile, runModelSettings } from '../../src/providers/profiles.ts';
import { loadTokenCounter } from '../../src/providers/index.ts';
import { parseChain } from '../../src/chain/parse.ts';
import { stepRegistry } from '../../src/steps/index.ts';
import { createMemoryRunRepository } from '../../src/trace/index.ts';
import { useEvalStore } from '../evaluate/eval-store.ts';

/**
 * `/?bench&…&eval=N` (scripts/bench-canvas.ts, "during an eval"): a batch of N items of the
 * summarise demo on the demo model runs in this tab while the harness pans, through the same
 * engine pool the Evaluate view uses and with its progress throttled the same way (at most 4
 * store updates a second). Runs go to memory, not IndexedDB: a bench leaves no trace. It loops
 * until the page closes, so the whole measurement happens during a batch.
 */
const PROGRESS_MS = 250;

export async function runBenchEval(items: number): Promise<void> {
  const [chainText, document] = await Promise.all([
    fetch('/demo/summarise-then-answer.chain.json').then((r) => r.text()),
    fetch('/demo/documents/42-USC-1395ff.md').then((r) => r.text()),
  ]);
  const parsed = parseChain(chainText, stepRegistry);
  if (!parsed.ok) throw new Error('the summarise demo does not parse');
  const dataset: Dataset = {
    items: Array.from({ length: items }, (_, i) => ({ id: `b${i}`, inputs: { document, question: `How many days do I have to appeal (${i})?` }, expected: { facts: ['120-day period'] } })),
  };
  const countTokens = await loadTokenCounter();
  let last = 0;
  for (let round = 0; ; round++) {
    const repo = createMemoryRunRepository();
    await runEval({
      variants: [{ name: `bench-${round}`, kind: 'chain', chain: parsed.chain }], dataset, provider: createProviderForProfile(demoProfile), model: runModelSettings(demoProfile),
      repo, registry: stepRegistry, concurrency: 4, countTokens,
      onResult: async (result) => void repo.deleteRun(result.runId),
      onProgress: (progress) => {
        const now = performance.now();
        if (now - last < PROGRESS_MS) return;
        last = now;
        useEvalStore.getState().setRunning({ evalId: 'bench', progress });
      },
    });
  }
}
