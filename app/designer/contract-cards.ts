import { contractCard, contractCards, contractIndex, type ContractCard } from '../../src/chain/index.ts';
import type { Chain } from '../../src/chain/index.ts';
import type { StepRegistry } from '../../src/steps/index.ts';
import { canvasRegistry } from './canvas-registry.ts';

/** The card of one data edge (by canvas edge id), or null when it is not a data edge between steps. */
export function contractCardFor(chain: Chain, edgeId: string, registry: StepRegistry = canvasRegistry): ContractCard | null {
  const index = contractIndex(chain, registry);
  const edge = index.edges.find((e) => e.id === edgeId && e.kind === 'data');
  return edge ? contractCard(chain, edge, registry, index) : null;
}

/** Ids of data edges whose boundary leaves at least one of the four decisions unanswered. */
export function unansweredEdgeIds(chain: Chain, registry: StepRegistry = canvasRegistry): Set<string> {
  try {
    return new Set(contractCards(chain, registry).filter((c) => c.unanswered.length > 0).map((c) => c.edgeId));
  } catch {
    // A chain mid-edit can be unsound in ways the card does not expect; markers return once it parses.
    return new Set();
  }
}
