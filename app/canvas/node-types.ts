import type { EdgeTypes, NodeTypes } from '@xyflow/react';
import { ChainEdge } from './ChainEdge.tsx';
import { InputNode } from './InputNode.tsx';
import { StepNode } from './StepNode.tsx';

/** Module scope: a new object per render would make React Flow remount every node. */
// 'chainInput', not 'input': React Flow styles its built-in 'input' type.
export const nodeTypes: NodeTypes = { step: StepNode, chainInput: InputNode };
export const edgeTypes: EdgeTypes = { chain: ChainEdge };
