import { useCallback, useMemo, useState } from 'react';
import { createPortal } from 'react-dom';
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
  const [height, setHeight] = useState(250);
  // The card's height depends on what it says (open decisions, the conditions row): measured, so
  // it is placed by its real size. Re-renders only when the height changes.
  const measure = useCallback((el: HTMLDivElement | null) => {
    if (!el) return;
    const observer = new ResizeObserver(() => setHeight(el.offsetHeight));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  if (!hovered || !info) return null;
  // Keep the card on screen: flip left near the right edge; above the pointer when it does not fit below, and never off the top.
  const left = hovered.x + 340 > window.innerWidth ? hovered.x - 336 : hovered.x + 14;
  const below = hovered.y + 14;
  const top = below + height + 8 <= window.innerHeight ? below : Math.max(8, Math.min(hovered.y - height - 10, window.innerHeight - height - 8));
  // In document.body: inside the canvas pane the card shares the pane's stacking order, and the
  // pane separators (z-index 5, later in the page) were drawn across it.
  return createPortal(
    <div className="edge-hover" style={{ left, top }} role="tooltip" ref={measure}>
      {info.kind === 'card' ? (
        <ContractCardView card={info.card} testId="contract.card.hover" conditions={conditions} />
      ) : (
        <div className="contract-card" data-testid="contract.card.hover">
          <div className="contract-head mono">{info.title}</div>
          <p className="small">{info.text}</p>
        </div>
      )}
    </div>,
    document.body,
  );
}
