/**
 * How the writer thread (finish-worker.ts) is started when the collector runs from the
 * TypeScript sources (tsx, vitest, the e2e's CLI): Node 20 does not pass tsx on to a worker
 * (`--import tsx` in its execArgv is not enough), so the worker's first code registers tsx's
 * loader and then imports the entry. The bundled CLI has no sources and no tsx: there
 * scripts/build-cli.ts puts a module of its own in place of this one, naming the built worker
 * file beside the CLI (dist-cli/collect-worker.mjs).
 */
export interface WorkerEntry {
  /** A module URL, or code when `eval` is true. */
  entry: string | URL;
  eval: boolean;
}

export function finishWorkerEntry(): WorkerEntry {
  const tsx = import.meta.resolve('tsx/esm/api');
  const worker = new URL('./finish-worker.ts', import.meta.url).href;
  return { entry: `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(worker)}); });`, eval: true };
}
