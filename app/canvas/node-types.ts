import type { NodeTypes } from '@xyflow/react';
import { InputNode } from './InputNode.tsx';
import { StepNode } from './StepNode.tsx';

/** Module scope: a new object per render would make React Flow remount every node. */
// 'chainInput', not 'input': React Flow styles its built-in 'input' type.
export const nodeTypes: NodeTypes = { step: StepNode, chainInput: InputNode };
