import { Panel, useReactFlow, useStoreApi } from '@xyflow/react';
import type { FlowEdge, FlowNode } from '../canvas/flow-elements.ts';
import { useEditorStore } from '../stores/editor-store.ts';
import { selectCanRedo, selectCanUndo } from '../stores/history-slice.ts';
import { selectCompoundingOpen } from '../stores/selectors.ts';
import { autoLayoutChain, fitAll } from './commands.ts';
import { isMac } from './shortcuts.ts';

const mod = () => (isMac() ? '⌘' : 'Ctrl+');

/** Undo/redo, auto layout, fit, the compounding estimate and the shortcut help, over the canvas. */
export function Toolbar() {
  const rf = useReactFlow<FlowNode, FlowEdge>();
  const store = useStoreApi<FlowNode, FlowEdge>();
  const canUndo = useEditorStore(selectCanUndo);
  const canRedo = useEditorStore(selectCanRedo);
  const compounding = useEditorStore(selectCompoundingOpen);
  const tool = useEditorStore((state) => state.canvasTool);
  const s = useEditorStore.getState;
  return (
    <Panel position="top-left" className="designer-toolbar" data-testid="designer.toolbar">
      <button type="button" className="button small" data-testid="designer.undo" disabled={!canUndo} title={`Undo (${mod()}Z)`} onClick={() => s().undo()}>
        Undo
      </button>
      <button type="button" className="button small" data-testid="designer.redo" disabled={!canRedo} title={`Redo (${mod()}Shift+Z)`} onClick={() => s().redo()}>
        Redo
      </button>
      <span className="toolbar-gap" />
      <span className="tool-switch" role="group" aria-label="Dragging the canvas">
        <button type="button" className={tool === 'pan' ? 'button small is-on' : 'button small'} data-testid="designer.tool.pan" aria-pressed={tool === 'pan'} title="Drag pans the view; Shift+drag selects (H)" onClick={() => s().setCanvasTool('pan')}>
          Pan
        </button>
        <button type="button" className={tool === 'select' ? 'button small is-on' : 'button small'} data-testid="designer.tool.select" aria-pressed={tool === 'select'} title="Drag selects with a box; scroll or Space+drag pans (V)" onClick={() => s().setCanvasTool('select')}>
          Select
        </button>
      </span>
      <span className="toolbar-gap" />
      <button type="button" className="button small" data-testid="designer.layout" title="Auto layout (Shift+L)" onClick={() => void autoLayoutChain(rf, store)}>
        Auto layout
      </button>
      <button type="button" className="button small" data-testid="designer.fit" title="Fit view (F)" onClick={() => fitAll(rf, store)}>
        Fit
      </button>
      <button
        type="button"
        className={compounding ? 'button small is-on' : 'button small'}
        data-testid="designer.compounding"
        aria-pressed={compounding}
        title="Expected end-to-end success from per-step error rates"
        onClick={() => s().setCompoundingOpen(!compounding)}
      >
        Compounding
      </button>
      <button type="button" className="button small" data-testid="designer.shortcuts" title="Keyboard shortcuts (?)" onClick={() => s().setOverlay('shortcuts')}>
        ?
      </button>
    </Panel>
  );
}
