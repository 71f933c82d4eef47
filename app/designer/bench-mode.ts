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
  const open = () => useEditorStore.getState().openChain(makeBenchChain(Number.isFinite(n) ? n : 200));
  // `&eval=N`: the measurement happens while a batch runs in this tab (bench-eval.ts). The chain
  // opens once the batch's first results are in, so the harness (which pans half a second after
  // the canvas is ready) measures a running batch, not the worker compiling the engine and the
  // tokenizer, which it does once per batch.
  const evalItems = Number(params.get('eval') ?? 0);
  if (evalItems > 0) void import('./bench-eval.ts').then((m) => m.runBenchEval(evalItems, open));
  else open();
}
