import { useEffect, useState } from 'react';
import type { Chain } from '../../src/chain/index.ts';
import type { BoundaryConditions } from '../../src/inspect/index.ts';

/**
 * The named conditions one edge must carry, for its contract card. The analysis and the chain's
 * documents load with import() on the first card shown (a hover or a click), never on first
 * paint; a chain that names no documents loads nothing. Re-renders once, when the answer comes.
 */
export function useEdgeConditions(chain: Chain, edgeId: string | undefined): BoundaryConditions | null {
  const [found, setFound] = useState<{ chain: Chain; edgeId: string; value: BoundaryConditions | null } | null>(null);
  const names = chain.meta?.inputFiles !== undefined;
  useEffect(() => {
    if (!edgeId || !names) return;
    let live = true;
    import('./condition-needs.ts')
      .then((m) => m.edgeConditions(chain, edgeId))
      .then((value) => {
        if (live) setFound({ chain, edgeId, value });
      })
      // A chain mid-edit can be unsound in ways the analysis does not expect: the card shows without the row.
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [chain, edgeId, names]);
  return found && found.chain === chain && found.edgeId === edgeId ? found.value : null;
}
