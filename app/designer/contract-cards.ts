import { contractCard, type ContractCard } from '../../src/chain/contract-card.ts';
import { chainEdges, type ChainEdge } from '../../src/chain/graph.ts';
import type { Chain, StepDef } from '../../src/chain/schema.ts';
import type { StepRegistry } from '../../src/steps/registry.ts';
import { canvasRegistry } from './canvas-registry.ts';

/**
 * Contract cards for every data edge, in time linear in the chain. contractCard() derives the
 * chain's edges again for each card (to find gates that also check the producer), which makes
 * contractCards() quadratic: ~12 s at 1,000 steps. A card only depends on its producer, its
 * consumer and the steps that read the producer, so each card is computed on that small
 * sub-chain, which gives the same card.
 */
function neighbourhoods(chain: Chain, registry: StepRegistry) {
  const edges = chainEdges(chain, registry).filter((e) => e.kind === 'data');
  const byId = new Map(chain.steps.map((s) => [s.id, s]));
  const readers = new Map<string, StepDef[]>();
  for (const e of edges) {
    const target = byId.get(e.target);
    if (target) readers.set(e.source, [...(readers.get(e.source) ?? []), target]);
  }
  const subChain = (edge: ChainEdge): Chain => {
    const steps = new Set<StepDef>();
    for (const id of [edge.source, edge.target]) {
      const step = byId.get(id);
      if (step) steps.add(step);
    }
    for (const r of readers.get(edge.source) ?? []) steps.add(r);
    return { ...chain, steps: [...steps] };
  };
  return { edges, subChain };
}

export function contractCardsFast(chain: Chain, registry: StepRegistry = canvasRegistry): ContractCard[] {
  const { edges, subChain } = neighbourhoods(chain, registry);
  return edges.map((e) => contractCard(subChain(e), e, registry));
}

/** The card of one data edge (by canvas edge id), or null when it is not a data edge between steps. */
export function contractCardFor(chain: Chain, edgeId: string, registry: StepRegistry = canvasRegistry): ContractCard | null {
  const { edges, subChain } = neighbourhoods(chain, registry);
  const edge = edges.find((e) => e.id === edgeId);
  return edge ? contractCard(subChain(edge), edge, registry) : null;
}

/** Ids of data edges whose boundary leaves at least one of the four decisions unanswered. */
export function unansweredEdgeIds(chain: Chain, registry: StepRegistry = canvasRegistry): Set<string> {
  try {
    return new Set(contractCardsFast(chain, registry).filter((c) => c.unanswered.length > 0).map((c) => c.edgeId));
  } catch {
    // A chain mid-edit can be unsound in ways the card does not expect; markers return once it parses.
    return new Set();
  }
}
