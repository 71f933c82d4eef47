import type { EndpointProfile } from '../../src/providers/index.ts';

/** The demo profile is named plainly; others show their name and model. */
export function profileLabel(p: EndpointProfile): string {
  return p.kind === 'demo' ? 'Demo model (offline)' : `${p.name} · ${p.model}`;
}
