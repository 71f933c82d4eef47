import type { Chain } from '../chain/schema.ts';
import type { StepRegistry } from './registry.ts';

/**
 * Where a chain sends data beside its model endpoint (webhooks). Every consumer (the engine's
 * run-start check, the CLI's `--allow-webhook`, the app's consent dialog, lint) reads it here,
 * from the step kinds' own `egress`, so none of them switches on step kinds.
 */
export interface EgressTarget {
  stepId: string;
  stepName: string;
  url: string;
  /** `scheme://host:port`: consent is given per origin. */
  origin: string;
}

/** The origin of a URL, or null when it is not an http(s) URL. */
export function egressOrigin(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : null;
  } catch {
    return null;
  }
}

/** Every URL the chain's steps post to, with its origin; steps whose config does not parse are left to validation. */
export function chainEgress(chain: Chain, registry: StepRegistry): EgressTarget[] {
  const targets: EgressTarget[] = [];
  for (const step of chain.steps) {
    const def = registry.get(step.kind);
    if (!def?.egress) continue;
    const parsed = def.config.safeParse(step.config);
    if (!parsed.success) continue;
    for (const url of def.egress(parsed.data)) {
      // An unparseable URL is its own origin: it can never match an allowed one by accident.
      targets.push({ stepId: step.id, stepName: step.name || step.id, url, origin: egressOrigin(url) ?? url });
    }
  }
  return targets;
}

/** The targets whose origin is not in `allowed` (origins compare exactly, after URL normalisation). */
export function unconfirmedEgress(chain: Chain, registry: StepRegistry, allowed: Iterable<string>): EgressTarget[] {
  return unconfirmedTargets(chainEgress(chain, registry), allowed);
}

/** As unconfirmedEgress, over targets already listed (the engine lists a chain's once). */
export function unconfirmedTargets(targets: readonly EgressTarget[], allowed: Iterable<string>): EgressTarget[] {
  if (targets.length === 0) return [];
  const ok = new Set([...allowed].map((o) => egressOrigin(o) ?? o));
  return targets.filter((t) => !ok.has(t.origin));
}

/** One sentence for a refused run: which steps would post where, and how to allow it. */
export function egressRefusal(targets: readonly EgressTarget[], how: string): string {
  const origins = [...new Set(targets.map((t) => t.origin))];
  const steps = targets.map((t) => `"${t.stepName}"`).join(', ');
  return `This chain would send data to ${origins.join(', ')} (webhook ${steps}), which is not allowed: ${how}. Nothing was sent.`;
}
