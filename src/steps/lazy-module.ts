/**
 * A module a step kind loads on its first run, kept out of the app's first load. The import is
 * made once and its promise kept: each later run awaits a settled promise instead of asking the
 * module loader again (under a loader with hooks, tsx or a bundler's runtime, every import()
 * is a round trip; per step it was most of the engine's own time on a 10-step chain).
 *
 * @example
 * const modelCall = lazyModule(() => import('./model-call.ts'));
 * const { runContractCall } = await modelCall();
 */
export interface LazyModule<M> {
  (): Promise<M>;
  /** The module once its import has resolved, else undefined: a step's run can call it without an await. */
  readonly ready: () => M | undefined;
}

export function lazyModule<M>(load: () => Promise<M>): LazyModule<M> {
  let loaded: Promise<M> | undefined;
  let module: M | undefined;
  const get = () => {
    loaded ??= load().then((m) => (module = m)).catch((error: unknown) => {
      // A failed load (a chunk the network dropped) is tried again next time, not kept.
      loaded = undefined;
      throw error;
    });
    return loaded;
  };
  return Object.assign(get, { ready: () => module });
}
