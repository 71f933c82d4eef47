import type { Chain } from '../chain/schema.ts';
import { runChain } from '../engine/run.ts';
import { twoStepChain } from './chain-fixtures.ts';
import { createScriptedProvider, type ScriptedReply } from './scripted-provider.ts';
import type { RunMeta, TraceEvent } from '../trace/events.ts';
import { createMemoryRunRepository } from '../trace/repository.ts';

/**
 * Real engine runs for the export/import tests (test-only; kept out of `*.test.ts` so the
 * test files share it). A stepping clock makes every event time distinct and runs repeatable.
 */
export const TEST_INPUTS = { document: 'Appeals must be filed within 180 days of the notice.', question: 'How many days do I have?' };

export async function engineRun(replies: ScriptedReply[], chain: Chain = twoStepChain(), inputs: Record<string, unknown> = TEST_INPUTS): Promise<{ meta: RunMeta; events: TraceEvent[] }> {
  const repo = createMemoryRunRepository();
  let clock = 1_760_000_000_000;
  const meta = await runChain({
    chain, inputs, provider: createScriptedProvider(replies), repo, runId: 'run-otlp-test',
    model: { name: 'test-model', maxOutputTokens: 4096, structuredOutput: true, prices: { input: 1, output: 2 } },
    countTokens: (t) => t.length, now: () => (clock += 7),
  });
  return { meta: (await repo.getRun(meta.id)) as RunMeta, events: await repo.getEvents(meta.id) };
}
