import type { EndpointProfile } from '../../src/providers/index.ts';
import type { RunMeta } from '../../src/trace/index.ts';

/**
 * The endpoint profile a stored run called, for resuming it: the one whose id the run
 * recorded, never whichever is selected now (that could be another endpoint, another key,
 * another model, mid-run). When that profile is gone the run cannot resume, and the person is
 * told so. A run recorded before runs kept the id is matched by provider and model, but only
 * when exactly one profile matches.
 */
export function profileForRun(meta: Pick<RunMeta, 'profileId' | 'provider' | 'model'>, profiles: readonly EndpointProfile[]): { profile: EndpointProfile } | { error: string } {
  if (profiles.length === 0) return { error: 'no endpoint profile is loaded yet' };
  const used = `${meta.provider} · ${meta.model}`;
  if (meta.profileId !== undefined) {
    const profile = profiles.find((p) => p.id === meta.profileId);
    return profile
      ? { profile }
      : { error: `the endpoint profile this run used (${used}) no longer exists on this device, and it will not resume on another endpoint. Start a new run instead` };
  }
  const matching = profiles.filter((p) => p.kind === meta.provider && p.model === meta.model);
  const [only] = matching;
  if (only && matching.length === 1) return { profile: only };
  return {
    error: matching.length === 0
      ? `no endpoint profile on this device matches the one this run used (${used}). Start a new run instead`
      : `this run did not record which endpoint profile it used, and ${matching.length} profiles match ${used}. Start a new run instead`,
  };
}
