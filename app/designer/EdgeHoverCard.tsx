import { useMemo } from 'react';
import type { Chain } from '../../src/chain/index.ts';
import { useEditorStore } from '../stores/editor-store.ts';
import { selectHoveredEdge } from '../stores/selectors.ts';
import { ContractCardView } from './ContractCardView.tsx';
import { edgeInfo } from './edge-info.ts';
import { useEdgeConditions } from './use-edge-conditions.ts';


/** The boundary contract card as a tooltip next to the pointer while it is over an edge. */
export function EdgeHoverCard({ chain }: { chain: Chain }) {
  const hovered = useEditorStore(selectHoveredEdge);
  const id = hovered?.id;
  const info = useMemo(() => (id ? edgeInfo(chain, id) : null), [chain, id]);
  const conditions = useEdgeConditions(chain, info?.kind === 'card' ? id : undefined);
  if (!hovered || !info) return null;
  // Keep the card on screen: flip left/up near the right and bottom edges.
  const left = hovered.x + 340 > window.innerWidth ? hovered.x - 336 : hovered.x + 14;
  const top = hovered.y + 260 > window.innerHeight ? Math.max(8, hovered.y - 250) : hovered.y + 14;
  return (
    <div className="edge-hover" style={{ left, top }} role="tooltip">
      {info.kind === 'card' ? (
        <ContractCardView card={info.card} testId="contract.card.hover" conditions={conditions} />
      ) : (
        <div className="contract-card" data-testid="contract.card.hover">
          <div className="contract-head mono">{info.title}</div>
          <p className="small">{info.text}</p>
        </div>
      )}
    </div>
  );
}
