import type { RunMeta } from '../../src/trace/index.ts';

/** The runs of one evaluation batch, newest first, under the batch's id. */
export interface RunBatch {
  evalId: string;
  runs: RunMeta[];
  /** When the batch's first stored run started. */
  startedAt: number;
}

// An eval item's run id is `<eval id>-<10 hex>`, the eval id `eval-<base 36 time>-<6 hex>`
// (eval-actions.ts). Runs stored before runs carried `evalId` are grouped by it.
const EVAL_RUN_ID = /^(eval-[0-9a-z]+-[0-9a-f]{6})-[0-9a-f]{10}$/;

/** The batch a run is an item of, or null for a person's own run. */
export function evalIdOf(run: RunMeta): string | null {
  return run.evalId ?? EVAL_RUN_ID.exec(run.id)?.[1] ?? null;
}

/**
 * A person's own runs apart from evaluation runs, which go under their batch (newest batch
 * first). Order within each list is kept from `runs` (newest first, as listRuns returns).
 */
export function groupRuns(runs: readonly RunMeta[]): { own: RunMeta[]; batches: RunBatch[] } {
  const own: RunMeta[] = [];
  const byEval = new Map<string, RunBatch>();
  for (const run of runs) {
    const evalId = evalIdOf(run);
    if (!evalId) {
      own.push(run);
      continue;
    }
    const batch = byEval.get(evalId) ?? { evalId, runs: [], startedAt: run.startedAt };
    batch.runs.push(run);
    batch.startedAt = Math.min(batch.startedAt, run.startedAt);
    byEval.set(evalId, batch);
  }
  return { own, batches: [...byEval.values()].sort((a, b) => b.startedAt - a.startedAt) };
}
