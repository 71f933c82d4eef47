import type { Chain } from '../../src/chain/index.ts';
import type { EndpointProfile } from '../../src/providers/index.ts';
import { stepsNamingProfiles } from '../../src/steps/index.ts';

/**
 * The endpoint profiles a chain's steps name (model steps may call another endpoint than the
 * run's), resolved by name among this device's profiles. A name with no profile here is an
 * error before the run starts — never a silent fall back to the run's endpoint.
 */
export function stepProfiles(chain: Chain, profiles: readonly EndpointProfile[]): { profiles: EndpointProfile[] } | { error: string } {
  const wanted = new Map<string, string[]>();
  for (const { stepId, profile } of stepsNamingProfiles(chain)) wanted.set(profile, [...(wanted.get(profile) ?? []), stepId]);
  const found: EndpointProfile[] = [];
  const missing: string[] = [];
  for (const [name, steps] of wanted) {
    const profile = profiles.find((p) => p.name === name);
    if (profile) found.push(profile);
    else missing.push(`"${name}" (named by ${steps.join(', ')})`);
  }
  if (missing.length) return { error: `no endpoint profile named ${missing.join(' or ')} on this device: add it under Profiles…, or change the step` };
  return { profiles: found };
}
