import { useReactFlow, useStoreApi } from '@xyflow/react';
import type { FlowEdge, FlowNode } from '../canvas/flow-elements.ts';
import { autoLayoutChain, copySelection, duplicateSelection } from './commands.ts';
import { isMac } from './shortcuts.ts';

/**
 * Several steps selected: what can be done to all of them. Delete goes through the canvas, which
 * asks first when a branch goes to one of them, and makes it one undo step.
 */
export function SelectionPanel({ ids }: { ids: readonly string[] }) {
  const rf = useReactFlow<FlowNode, FlowEdge>();
  const store = useStoreApi<FlowNode, FlowEdge>();
  const mod = isMac() ? '⌘' : 'Ctrl+';
  return (
    <div className="panel-body" data-testid="inspector.selection">
      <div className="panel-title">
        <span className="step-kind">{ids.length} steps selected</span>
      </div>
      <p className="mono small muted">{ids.join(', ')}</p>
      <div className="row">
        <button type="button" className="button small" onClick={() => copySelection()} title={`${mod}C`}>Copy</button>
        <button type="button" className="button small" onClick={duplicateSelection} title={`${mod}D`}>Duplicate</button>
        <button type="button" className="button small danger" onClick={() => void rf.deleteElements({ nodes: ids.map((id) => ({ id })) })} title="Delete">Delete</button>
        <button type="button" className="button small" onClick={() => void autoLayoutChain(rf, store)}>Auto layout</button>
      </div>
      <p className="panel-hint">Shift-click adds or removes a step; Shift-drag on the canvas selects with a box. {mod}V pastes copied steps into this or another chain.</p>
    </div>
  );
}
