import { useMemo } from 'react';
import type { Chain } from '../../src/chain/index.ts';
import { ContractCardView } from './ContractCardView.tsx';
import './designer.css';
import { edgeInfo } from './edge-info.ts';
import { useEdgeConditions } from './use-edge-conditions.ts';

/** The selected edge in the inspector: its boundary contract card (data edges), or what it is. */
export default function EdgePanel({ chain, edgeId }: { chain: Chain; edgeId: string }) {
  const info = useMemo(() => edgeInfo(chain, edgeId), [chain, edgeId]);
  const conditions = useEdgeConditions(chain, info?.kind === 'card' ? edgeId : undefined);
  return (
    <div className="panel-body">
      <div className="panel-title">
        <span className="step-kind">{info?.kind === 'card' ? 'Boundary contract' : 'Edge'}</span>
      </div>
      {info?.kind === 'card' ? (
        <>
          <p className="panel-hint">The four decisions at this handoff: what crosses, in what shape, what is checked, and what happens when the check fails. Open ones are design warnings too.</p>
          <ContractCardView card={info.card} testId="contract.card" conditions={conditions} />
        </>
      ) : info ? (
        <div className="contract-card" data-testid="contract.card">
          <div className="contract-head mono">{info.title}</div>
          <p className="small">{info.text}</p>
        </div>
      ) : (
        <p className="muted">This edge is not part of the chain any more.</p>
      )}
    </div>
  );
}
