import type { Chain } from '../../src/chain/index.ts';
import { rerunFromStep } from '../../src/engine/index.ts';
import { runChain, type RunOptions } from '../../src/engine/index.ts';
import { confirmEgress } from '../egress/consent.ts';
import { holdRunLease } from './run-lease.ts';
import { stepProfiles } from './step-endpoints.ts';
import { createProviderForProfile, runModelSettings, type EndpointProfile } from '../../src/providers/profiles.ts';
import { TRACE_VERSION, type RunMeta, type TraceEvent } from '../../src/trace/index.ts';
import { createRunViewBuilder } from '../../src/trace/index.ts';
import { restoreChain } from '../../src/chain/parse.ts';
import { getRunRepository, openDb } from '../persistence/connection.ts';
import { getApiKey } from '../persistence/profiles.ts';
import { publishChainEvent } from '../persistence/chain-events.ts';
import { useEditorStore } from '../stores/editor-store.ts';
import { type PartialText, useRunStore } from '../stores/run-store.ts';
import { openStoredReplay } from './replay-load.ts';
import { profileForRun } from './run-profile.ts';
import { refreshRuns } from './run-actions.ts';
import { stepRegistry } from '../../src/steps/index.ts';

/**
 * Running the engine from the tab: a new run, a resumed one, or a fork (rerun from a step).
 * All three open a live replay that grows as events arrive (map units appear as they finish)
 * and stream partial text onto the running step. Store updates are batched per frame-ish
 * interval here, never inside the store.
 */
let controller: AbortController | null = null;

export function cancelRun(): void {
  controller?.abort();
}

export type EngineOptions = Pick<RunOptions, 'provider' | 'model' | 'profileId' | 'profiles' | 'repo' | 'fetch' | 'signal' | 'runId' | 'onEvent' | 'onDelta' | 'allowEgress' | 'egressHint'>;

export interface Launch {
  /** The run as far as it is known before the engine starts (the live replay's meta). */
  meta: RunMeta;
  /** Events already stored (a resumed run); empty for a new run or a fork. */
  seed: readonly TraceEvent[];
  /** The chain that will run (its steps may name further endpoint profiles). */
  chain: Chain;
  profile: EndpointProfile;
  go(options: EngineOptions): Promise<RunMeta>;
}

const FLUSH_MS = 80;

export async function launch({ meta, seed, chain, profile, go }: Launch): Promise<RunMeta | null> {
  const toast = useEditorStore.getState().pushToast;
  if (controller) {
    toast('error', 'A run is already going: wait for it or cancel it first');
    return null;
  }
  controller = new AbortController();
  // Webhook origins are confirmed (asked once per device) before the run exists: a refusal
  // stops it here, with nothing called and nothing sent.
  let egress: Awaited<ReturnType<typeof confirmEgress>>;
  try {
    egress = await confirmEgress(chain);
  } catch (error) {
    egress = { refused: (error as Error).message };
  }
  if ('refused' in egress) {
    controller = null;
    toast('error', `Run stopped: ${egress.refused}.`);
    return null;
  }
  const runs = useRunStore.getState();
  const runId = meta.id;
  const events: TraceEvent[] = [...seed];
  // The view grows by folding each new event in: a flush costs the events since the last one,
  // not the whole run (rebuilding it every 80 ms was quadratic over a long run).
  const live = createRunViewBuilder(meta, stepRegistry);
  for (const event of seed) live.add(event);
  let shown = events.length;
  let deltas: Record<string, PartialText> = {};
  let timer: ReturnType<typeof setTimeout> | null = null;
  const flush = () => {
    timer = null;
    const batch = deltas;
    deltas = {};
    if (Object.keys(batch).length) useRunStore.getState().applyDeltas(batch);
    // Streamed text alone leaves the replay as it was.
    if (events.length === shown) return;
    shown = events.length;
    useRunStore.getState().updateLiveReplay(runId, events.slice(), live.view());
  };
  const schedule = () => {
    timer ??= setTimeout(flush, FLUSH_MS);
  };

  let releaseLease: () => void = () => undefined;
  try {
    // Held while the run goes: another tab starting up sees the run is alive, not interrupted.
    releaseLease = await holdRunLease(runId);
  } catch (error) {
    controller = null;
    toast('error', `This run cannot start here: ${(error as Error).message}`);
    return null;
  }
  runs.startLive(runId, meta.chainId);
  runs.openReplay({ meta, events: events.slice(), view: live.view(), reports: [], live: true });
  try {
    const repo = await getRunRepository();
    const db = await openDb();
    const providerFor = async (p: EndpointProfile) => createProviderForProfile(p, { apiKey: p.kind === 'demo' ? undefined : await getApiKey(db, p.id), browser: true });
    // Steps may name other endpoint profiles; each gets its own provider and key.
    const named = stepProfiles(chain, useEditorStore.getState().profiles);
    if ('error' in named) throw new Error(named.error);
    const profiles = Object.fromEntries(await Promise.all(named.profiles.map(async (p) => [p.name, { provider: await providerFor(p), model: runModelSettings(p) }] as const)));
    const final = await go({
      provider: await providerFor(profile),
      model: runModelSettings(profile),
      profileId: profile.id,
      profiles,
      repo,
      fetch: window.fetch.bind(window),
      allowEgress: egress.origins,
      egressHint: 'allow its origin when the run asks',
      signal: controller.signal,
      runId,
      onEvent: (event) => {
        events.push(event);
        live.add(event);
        useRunStore.getState().applyEvent(event);
        schedule();
        if (event.type === 'run.started' || event.type === 'run.resumed') {
          void refreshRuns(meta.chainId).catch(() => undefined);
          publishChainEvent({ type: 'runs', chainId: meta.chainId });
        }
      },
      onDelta: (stepId, text, unit) => {
        const before = deltas[stepId];
        deltas[stepId] = before && before.unit === unit ? { text: before.text + text, unit } : { text, unit };
        schedule();
      },
    });
    if (timer) clearTimeout(timer);
    flush();
    useRunStore.getState().finishLive(final);
    toast(final.status === 'succeeded' ? 'info' : 'error', final.status === 'succeeded' ? 'Run succeeded' : `Run ${final.status}${final.error ? `: ${final.error}` : ''}`);
    // The live replay becomes the stored one (with fact survival), where the person left it.
    const open = useRunStore.getState().replay;
    if (open?.live && open.meta.id === runId) await openStoredReplay(runId, open.index);
    return final;
  } catch (error) {
    if (timer) clearTimeout(timer);
    useRunStore.getState().finishLive({ id: runId, status: 'failed', error: (error as Error).message });
    toast('error', `The run could not start: ${(error as Error).message}`);
    const open = useRunStore.getState().replay;
    if (open?.live && open.meta.id === runId) useRunStore.getState().closeReplay();
    return null;
  } finally {
    controller = null;
    releaseLease();
    await refreshRuns(meta.chainId).catch(() => undefined);
    // Other tabs showing this chain's runs refresh their list too.
    publishChainEvent({ type: 'runs', chainId: meta.chainId });
  }
}

export function provisionalMeta(chain: Chain, inputs: Record<string, unknown>, profile: EndpointProfile, extra: Partial<RunMeta> = {}): RunMeta {
  return {
    id: globalThis.crypto.randomUUID(), traceVersion: TRACE_VERSION, chainId: chain.id, chainName: chain.name, chainRevision: '',
    chain, inputs, provider: profile.kind, model: profile.model, profileId: profile.id, status: 'running', startedAt: Date.now(), ...extra,
  };
}

export function startRun(chain: Chain, inputs: Record<string, unknown>, profile: EndpointProfile): Promise<RunMeta | null> {
  const meta = provisionalMeta(chain, inputs, profile);
  return launch({ meta, seed: [], chain, profile, go: (o) => runChain({ ...o, chain, inputs }) });
}

export async function resumeRun(runId: string): Promise<RunMeta | null> {
  const repo = await getRunRepository();
  const [meta, events] = await Promise.all([repo.getRun(runId), repo.getEvents(runId)]);
  if (!meta) throw new Error('that run is no longer stored');
  if (meta.status !== 'interrupted') throw new Error(`only an interrupted run can resume; this one ${meta.status}`);
  // The profile the run recorded, by id: never the one selected now (see run-profile.ts).
  const found = profileForRun(meta, useEditorStore.getState().profiles);
  if ('error' in found) throw new Error(found.error);
  const { profile } = found;
  // The snapshot is read like any stored chain (migrated, checked): a run resumes as the chain it started as.
  const restored = restoreChain(meta.chain, stepRegistry);
  if (!restored.ok || restored.problems.length > 0) throw new Error(`this run's chain cannot be read: ${restored.problems[0]?.path ?? '$'}: ${restored.problems[0]?.message ?? 'not a chain'}`);
  const chain = restored.chain;
  return launch({ meta: { ...meta, status: 'running' }, seed: events, chain, profile, go: (o) => runChain({ ...o, chain, inputs: meta.inputs, resume: { events } }) });
}

export interface ForkRequest {
  parent: RunMeta;
  parentEvents: readonly TraceEvent[];
  fromStep: string;
  /** The chain to run downstream of the fork (the parent's, or the one being edited). */
  chain: Chain;
  editedOutput?: { value: unknown };
  profile: EndpointProfile;
  reused: string[];
}

export function forkRun(request: ForkRequest): Promise<RunMeta | null> {
  const { parent, parentEvents, fromStep, chain, editedOutput, profile, reused } = request;
  const meta = provisionalMeta(chain, parent.inputs, profile, {
    forkedFrom: { runId: parent.id, stepId: fromStep, editedOutput: Boolean(editedOutput), reused },
  });
  return launch({ meta, seed: [], chain, profile, go: (o) => rerunFromStep({ ...o, parent, parentEvents, fromStep, chain, editedOutput }) });
}
