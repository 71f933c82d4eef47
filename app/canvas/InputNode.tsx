import { Handle, Position, type NodeProps } from '@xyflow/react';
import { memo } from 'react';
import type { InputFlowNode } from './flow-elements.ts';

/** A chain input as a small source node, so `inputs.x` bindings draw edges like step outputs do. */
export const InputNode = memo(function InputNode({ data, selected }: NodeProps<InputFlowNode>) {
  const { input, role } = data;
  const classes = ['input-node', selected ? 'is-selected' : '', role === 'source' ? 'role-source' : ''];
  return (
    <div className={classes.filter(Boolean).join(' ')} data-testid={`input.${input.name}`}>
      <span className="input-label">Input</span>
      <span className="input-name">{input.name}</span>
      {input.trust === 'untrusted' && <span className="trust-tag" title="Framed as data in every prompt">untrusted</span>}
      <Handle type="source" position={Position.Right} className="step-handle" />
    </div>
  );
});
