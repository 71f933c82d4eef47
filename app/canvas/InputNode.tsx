import { Handle, Position, useStore, type NodeProps, type ReactFlowState } from '@xyflow/react';
import { memo } from 'react';
import type { InputFlowNode } from './flow-elements.ts';
import { DETAIL_ZOOM } from './palette-constants.ts';

// As on step cards: zoomed out to the overview, an input is its label and name in large type.
const farSelector = (s: ReactFlowState) => s.transform[2] < DETAIL_ZOOM;

/** A chain input as a small source node, so `inputs.x` bindings draw edges like step outputs do. */
export const InputNode = memo(function InputNode({ data, selected }: NodeProps<InputFlowNode>) {
  const { input, role } = data;
  const far = useStore(farSelector);
  const classes = ['input-node', far ? 'is-far' : '', selected ? 'is-selected' : '', role === 'source' ? 'role-source' : ''];
  return (
    <div className={classes.filter(Boolean).join(' ')} data-testid={`input.${input.name}`} data-detail={far ? 'far' : undefined} title={far ? `Input ${input.name}` : undefined}>
      <span className="input-label">Input</span>
      <span className="input-name">{input.name}</span>
      {input.trust === 'untrusted' && !far && <span className="trust-tag" title="Framed as data in every prompt">untrusted</span>}
      <Handle type="source" position={Position.Right} className="step-handle" />
    </div>
  );
});
