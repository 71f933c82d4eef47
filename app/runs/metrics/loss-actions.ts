import { inspectRun } from '../../../src/inspect/index.ts';
import { canvasRegistry } from '../../designer/canvas-registry.ts';
import { lossCounts, type LossCounts } from '../../designer/compounding-rates.ts';
import { getRunRepository } from '../../persistence/connection.ts';

/** Fact survival reads every source: the newest runs are enough to say how often a handoff loses facts. */
const MAX_RUNS = 25;

/** Lossy handoffs per producing step, over the chain's newest finished stored runs. */
export async function loadLossCounts(chainId: string): Promise<LossCounts> {
  const repo = await getRunRepository();
  const metas = (await repo.listRuns({ chainId })).filter((m) => m.status !== 'running').slice(0, MAX_RUNS);
  const inspections = await Promise.all(metas.map(async (meta) => inspectRun(meta, await repo.getEvents(meta.id), { registry: canvasRegistry })));
  return lossCounts(inspections);
}
