import type { Chain } from '../../src/chain/index.ts';
import type { EndpointProfile } from '../../src/providers/index.ts';
import type { RunMeta } from '../../src/trace/index.ts';
import { getRunRepository } from '../persistence/connection.ts';
import { useEditorStore } from '../stores/editor-store.ts';
import { useRunStore } from '../stores/run-store.ts';
import { selectChain } from '../stores/selectors.ts';

/**
 * The run commands the run list, the run bar and the dialogs name. Each one loads its module
 * through import(): the engine (validator, tokenizer, providers), the replay builder and the
 * boundary analyses stay out of the initial bundle until a run is started or opened.
 */
const toastError = (what: string) => (error: unknown) => {
  useEditorStore.getState().pushToast('error', `${what}: ${(error as Error).message}`);
};

export async function refreshRuns(chainId: string): Promise<void> {
  const runs = await (await getRunRepository()).listRuns({ chainId });
  // The open chain may have changed while the list was loading.
  if (selectChain(useEditorStore.getState())?.id !== chainId) return;
  useRunStore.getState().setRuns(runs);
  // Node badges and the metrics table follow the run list; a failure here only hides them.
  void import('./metrics/metrics-actions.ts').then((m) => m.refreshMetrics(chainId)).catch(() => undefined);
}

export function startRun(chain: Chain, inputs: Record<string, unknown>, profile: EndpointProfile): Promise<RunMeta | null> {
  return import('./run-engine.ts').then((m) => m.startRun(chain, inputs, profile));
}

export function cancelRun(): void {
  void import('./run-engine.ts').then((m) => m.cancelRun());
}

/** Continues a run the tab was closed on: completed steps and map units are not called again. */
export function resumeRun(runId: string): void {
  import('./run-engine.ts').then((m) => m.resumeRun(runId)).catch(toastError('The run could not resume'));
}

/** Loads a stored run and opens the replay view on its first boundary. Never calls a model. */
export function openReplay(runId: string): Promise<void> {
  return import('./replay-load.ts')
    .then((m) => m.openStoredReplay(runId))
    .then(() => undefined, toastError('The run could not be opened'));
}

/** Reads an OTLP/JSON trace file; a file that does not import changes nothing stored. */
export function importTrace(file: File): Promise<void> {
  return import('./interop/trace-interop.ts')
    .then((m) => m.importTraceFile(file))
    .catch(toastError('The trace could not be imported'));
}
