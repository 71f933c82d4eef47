import type { Chain } from '../../src/chain/schema.ts';
import type { EndpointProfile } from '../../src/providers/profiles.ts';
import type { RunMeta } from '../../src/trace/events.ts';
import { getRunRepository, loadProviderModule, openDb } from '../persistence/connection.ts';
import { getApiKey } from '../persistence/profiles.ts';
import { useEditorStore } from '../stores/editor-store.ts';
import { useRunStore } from '../stores/run-store.ts';

/**
 * Starting, cancelling and opening runs. The engine (with its validator and tokenizer) and
 * the replay builder are loaded through import() so neither weighs on the first paint.
 */
let controller: AbortController | null = null;

export async function refreshRuns(chainId: string): Promise<void> {
  const runs = await (await getRunRepository()).listRuns({ chainId });
  // The open chain may have changed while the list was loading.
  if (useEditorStore.getState().chain?.id === chainId) useRunStore.getState().setRuns(runs);
}

export function isRunning(): boolean {
  return controller !== null;
}

export async function startRun(chain: Chain, inputs: Record<string, unknown>, profile: EndpointProfile): Promise<RunMeta | null> {
  if (controller) return null;
  const runs = useRunStore.getState();
  const toast = useEditorStore.getState().pushToast;
  const runId = globalThis.crypto.randomUUID();
  controller = new AbortController();
  runs.closeReplay();
  runs.startLive(runId, chain.id);
  try {
    const [{ runChain }, { createProviderForProfile, runModelSettings }, repo] = await Promise.all([
      import('../../src/engine/run.ts'),
      loadProviderModule(),
      getRunRepository(),
    ]);
    const apiKey = profile.kind === 'demo' ? undefined : await getApiKey(await openDb(), profile.id);
    const meta = await runChain({
      chain,
      inputs,
      provider: createProviderForProfile(profile, { apiKey, browser: true }),
      model: runModelSettings(profile),
      repo,
      fetch: window.fetch.bind(window),
      signal: controller.signal,
      runId,
      onEvent: (event) => {
        useRunStore.getState().applyEvent(event);
        if (event.type === 'run.started') void refreshRuns(chain.id);
      },
    });
    useRunStore.getState().finishLive(meta);
    toast(meta.status === 'succeeded' ? 'info' : 'error', meta.status === 'succeeded' ? 'Run succeeded' : `Run ${meta.status}${meta.error ? `: ${meta.error}` : ''}`);
    return meta;
  } catch (error) {
    useRunStore.getState().finishLive({ id: runId, status: 'failed', error: (error as Error).message });
    toast('error', `The run could not start: ${(error as Error).message}`);
    return null;
  } finally {
    controller = null;
    await refreshRuns(chain.id).catch(() => undefined);
  }
}

export function cancelRun(): void {
  controller?.abort();
}

/** Loads a stored run and opens the replay view on its first boundary. Never calls a model. */
export async function openReplay(runId: string): Promise<void> {
  const toast = useEditorStore.getState().pushToast;
  try {
    const repo = await getRunRepository();
    const [meta, events, { buildRunView }] = await Promise.all([repo.getRun(runId), repo.getEvents(runId), import('../../src/trace/replay.ts')]);
    if (!meta) {
      toast('error', 'That run is no longer stored');
      return;
    }
    useRunStore.getState().openReplay(meta, buildRunView(meta, events));
  } catch (error) {
    toast('error', `The run could not be opened: ${(error as Error).message}`);
  }
}
