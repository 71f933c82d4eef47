import type { Chain } from '../../../src/chain/index.ts';
import { rerunSpan } from '../../../src/engine/index.ts';
import type { ChatMessage } from '../../../src/providers/index.ts';
import type { EndpointProfile } from '../../../src/providers/profiles.ts';
import type { PromptTemplate, RunMeta, TraceEvent } from '../../../src/trace/index.ts';
import { launch, provisionalMeta } from '../run-engine.ts';

/**
 * Starts a rerun of one model span of an imported trace from the tab (see src/engine/rerun-span.ts),
 * as a live run like any fork: the replay opens on it and grows as its calls return. Loaded
 * with the rerun dialog, never before.
 */
export interface TraceRerunRequest {
  parent: RunMeta;
  parentEvents: readonly TraceEvent[];
  fromStep: string;
  messages: ChatMessage[];
  promptTemplate?: PromptTemplate;
  /** The chosen profile, its model replaced by the one the person typed. */
  profile: EndpointProfile;
  reused: string[];
}

export function forkTraceSpan(request: TraceRerunRequest): Promise<RunMeta | null> {
  const { parent, parentEvents, fromStep, messages, promptTemplate, profile, reused } = request;
  const chain = parent.chain as Chain;
  const meta = provisionalMeta(chain, parent.inputs, profile, {
    chainId: parent.chainId, chainName: parent.chainName, forkedFrom: { runId: parent.id, stepId: fromStep, editedOutput: false, reused },
    ...(parent.spans ? { spans: parent.spans } : {}),
  });
  return launch({
    meta, seed: [], chain, profile,
    go: (o) => rerunSpan({
      parent, parentEvents, fromStep, messages, ...(promptTemplate ? { promptTemplate } : {}),
      provider: o.provider, model: o.model, repo: o.repo, fetch: o.fetch, signal: o.signal, runId: o.runId, onEvent: o.onEvent, onDelta: o.onDelta,
      ...(o.profileId ? { profileId: o.profileId } : {}),
    }),
  });
}
