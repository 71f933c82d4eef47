import { useEffect, useState } from 'react';
import type { Chain } from '../../src/chain/index.ts';
import type { BoundaryConditions } from '../../src/inspect/index.ts';
import { datasetIn, useChainDatasets } from '../persistence/chain-datasets.ts';

/**
 * The named conditions one edge must carry, for its contract card: those its consumer's questions
 * need, the inputs' examples and the questions of the dataset the chain is evaluated on. The
 * analysis and the chain's documents load with import() on the first card shown (a hover or a
 * click), never on first paint; a chain that names no documents loads nothing. Re-renders once,
 * when the answer comes.
 */
export function useEdgeConditions(chain: Chain, edgeId: string | undefined): BoundaryConditions | null {
  const [found, setFound] = useState<{ chain: Chain; edgeId: string; dataset: string | null; value: BoundaryConditions | null } | null>(null);
  const names = chain.meta?.inputFiles !== undefined;
  // The dataset the chain is evaluated on (linked in the Evaluate view): its questions are the consumer's too.
  const dataset = useChainDatasets((s) => datasetIn(s.links, chain.id));
  useEffect(() => {
    if (!edgeId || !names) return;
    let live = true;
    import('./condition-needs.ts')
      .then((m) => m.edgeConditions(chain, edgeId))
      .then((value) => {
        if (live) setFound({ chain, edgeId, dataset, value });
      })
      // A chain mid-edit can be unsound in ways the analysis does not expect: the card shows without the row.
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [chain, edgeId, names, dataset]);
  return found && found.chain === chain && found.edgeId === edgeId && found.dataset === dataset ? found.value : null;
}
