import { useEditorStore } from '../stores/editor-store.ts';
import { makeBenchChain } from './bench-fixture.ts';

/**
 * `/?bench&fixture=chain&n=1000[&eval=200]`: opens a generated chain instead of the library. Nothing is
 * read from or written to the database (autosave does not run), so a bench leaves no trace.
 */
export function startBench(search: string): void {
  const params = new URLSearchParams(search);
  const fixture = params.get('fixture') ?? 'chain';
  if (fixture !== 'chain') throw new Error(`unknown bench fixture "${fixture}"`);
  const n = Number(params.get('n') ?? 200);
  useEditorStore.getState().openChain(makeBenchChain(Number.isFinite(n) ? n : 200));
  // `&eval=N`: the measurement happens while a batch runs in this tab (bench-eval.ts).
  const evalItems = Number(params.get('eval') ?? 0);
  if (evalItems > 0) void import('./bench-eval.ts').then((m) => m.runBenchEval(evalItems));
}
