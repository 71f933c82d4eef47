import {
  Background, Controls, ReactFlow,
  type Connection, type EdgeChange, type NodeChange, type OnBeforeDelete, type OnDelete, type OnNodeDrag, useNodesInitialized, useReactFlow, useStoreApi,
} from '@xyflow/react';
import { createElement, Suspense, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type DragEvent, type MouseEvent } from 'react';
import { useLoaded } from '../ui/use-loaded.ts';
import type { Chain } from '../../src/chain/index.ts';
import { branchesInto, connectBranch, drawsLabelledBranches } from '../../src/chain/branch-edit.ts';
import type { BranchChoice } from '../../src/steps/index.ts';
import { canvasRegistry } from '../designer/canvas-registry.ts';
import { onCanvasInit, benchCanvasProps } from '../designer/bench-hooks.ts';
// The overview is drawn with the cards, in the same commit (2 KB in this chunk, not a second
// round trip and a second render inside the frames that put the cards on screen).
import CanvasMiniMap from '../designer/CanvasMiniMap.tsx';
import { nextSelection } from '../designer/canvas-nodes.ts';
import { useCanvasElements } from '../designer/use-canvas-elements.ts';
import { useStableHandlers } from '../designer/use-stable-handlers.ts';
import { useRasterWhileMoving } from '../designer/use-raster-while-moving.ts';
import { useSpaceHeld } from '../designer/use-space-held.ts';
import { useEditorStore } from '../stores/editor-store.ts';
import { useRunStore } from '../stores/run-store.ts';
import {
  selectChain, selectLossyEdgeIds, selectMetrics, selectReplayOpen, selectSelectedEdgeIds, selectSelectedInput, selectSelectedStepId, selectSelectedStepIds,
} from '../stores/selectors.ts';
import { INPUT_PREFIX, type FlowEdge, type FlowNode } from './flow-elements.ts';
import { edgeTypes, nodeTypes } from './node-types.ts';
import { NODE_HALF, READABLE_ZOOM, STEP_DRAG_TYPE } from './palette-constants.ts';
import { useHighlight, useRunInfo } from './use-run-info.ts';
import { noteCanvasMoving } from './canvas-activity.ts';
import { BranchLabelPrompt, type PendingBranch } from './BranchLabelPrompt.tsx';
import { ConfirmBranchLoss, type BranchLoss } from './ConfirmBranchLoss.tsx';
import { afterCanvasPaint, noteCanvasCommitted } from './canvas-paint.ts';
import { fitReadable, openingViewport } from './fit-view.ts';
import { useOverviewScale } from './overview-scale.ts';

type XY = { x: number; y: number };


/**
 * The designer's layer (toolbar, shortcuts, contract-card tooltip, the compounding panel) loads once
 * the canvas has painted.
 * It is held in state, not rendered through React.lazy: a lazy component suspends on its first
 * render, and a render in which anything newly suspends is one React holds back for up to 300 ms
 * after the last fallback it showed (so content does not pop in piecemeal). When the canvas's own
 * chunk arrived, its first render suspended on this layer, and the cards waited ~220 ms for that
 * timer with nothing to do.
 */
type DesignerLayerComponent = typeof import('../designer/DesignerLayer.tsx').default;
let designerLayer: DesignerLayerComponent | null = null;
const currentDesignerLayer = () => designerLayer;
const loadDesignerLayer = () => afterCanvasPaint().then(() => import('../designer/DesignerLayer.tsx')).then((m) => (designerLayer = m.default));

const multiSelectKeys = ['Shift', 'Meta', 'Control'];
const selectPanButtons = [1, 2];
const proOptions = { hideAttribution: true };
// The dot grid is an SVG pattern that repaints the whole canvas on every pan frame; on a large
// chain that repaint (software raster especially) costs more than the cards. Large chains pan without it.
const DOT_GRID_MAX_STEPS = 500;

/** What to do on an empty canvas; it steps aside (no pointer events) for the drop it describes. */
function EmptyChainHint({ hasInputs }: { hasInputs: boolean }) {
  return (
    <div className="canvas-hint" data-testid="canvas.empty">
      <strong>This chain has no steps yet.</strong>
      <ol>
        <li>Drag a step from the palette onto the canvas (or Tab to it and press Enter).</li>
        {!hasInputs && <li>Add the chain's inputs with <em>Add input</em> in the chain panel.</li>}
        <li>Draw an edge from a card's right handle to another card: that step reads the output.</li>
      </ol>
    </div>
  );
}

/** The React Flow canvas for one chain; remounted per chain so view and measurements reset. */
function ChainCanvas({ chain, box }: { chain: Chain; box: HTMLDivElement }) {
  const DesignerLayer = useLoaded(currentDesignerLayer, loadDesignerLayer);
  const s = useEditorStore.getState;
  const selectedStepId = useEditorStore(selectSelectedStepId);
  const selectedStepIds = useEditorStore(selectSelectedStepIds);
  const selectedInput = useEditorStore(selectSelectedInput);
  const selectedEdgeIds = useEditorStore(selectSelectedEdgeIds);
  const runInfo = useRunInfo();
  const highlight = useHighlight();
  const replayOpen = useRunStore(selectReplayOpen);
  const tool = useEditorStore((state) => state.canvasTool);
  const lossy = useRunStore(selectLossyEdgeIds);
  const chainMetrics = useRunStore(selectMetrics);
  const metrics = chainMetrics?.chainId === chain.id ? chainMetrics.byStep : undefined;
  const rf = useReactFlow<FlowNode, FlowEdge>();
  const { screenToFlowPosition, fitView } = rf;
  const flowStore = useStoreApi<FlowNode, FlowEdge>();
  useOverviewScale(box, flowStore);
  // Measured sizes must go back into controlled nodes, or React Flow re-measures every render.
  const [measured, setMeasured] = useState<Record<string, { width: number; height: number }>>({});
  // Positions while dragging stay local; the chain gets one move when the drag ends.
  const [dragging, setDragging] = useState<Record<string, XY>>({});
  const dragActive = useRef(false);
  const [rasterRef, onRasterMove] = useRasterWhileMoving();
  // Each pan or zoom frame is also reported as canvas motion: a running eval batch then holds back.
  const onMove = useCallback(() => {
    onRasterMove();
    noteCanvasMoving();
  }, [onRasterMove]);
  const spaceHeld = useSpaceHeld();
  const boxSelect = tool === 'select' && !spaceHeld;

  const { nodes, edges: chainEdges } = useCanvasElements(chain, { selectedStepId, selectedStepIds, selectedInput, selectedEdgeIds, runInfo, highlight, lossy, metrics, measured, dragging });
  // An edge drawn from a router waits for its label; it shows dashed until the label is chosen.
  const [pendingBranch, setPendingBranch] = useState<PendingBranch | null>(null);
  const edges = useMemo<FlowEdge[]>(() => (pendingBranch
    ? [...chainEdges, { id: 'pending-branch', source: pendingBranch.source, target: pendingBranch.target, className: 'edge-pending', selectable: false, deletable: false, focusable: false }]
    : chainEdges), [chainEdges, pendingBranch]);
  // Deleting a step some branch goes to waits for the person's yes.
  const [branchLoss, setBranchLoss] = useState<BranchLoss | null>(null);

  // Open as Fit shows a chain (the whole chain when it is readable, else its start), from the
  // cards' estimated sizes, so the first frame is already right; then once more on the sizes
  // React Flow measured, unless the person has moved the view meanwhile. An empty chain opens at
  // 100 % and is not fitted when its first card is added.
  const [opening] = useState(() => openingViewport(nodes, { width: box.clientWidth, height: box.clientHeight }));
  const refined = useRef(opening === null);
  const measuredAll = useNodesInitialized();
  useLayoutEffect(() => {
    if (refined.current || !measuredAll || !opening) return;
    refined.current = true;
    const [x, y, zoom] = flowStore.getState().transform;
    if (x === opening.x && y === opening.y && zoom === opening.zoom) fitReadable(rf, flowStore, 0);
  }, [measuredAll, opening, rf, flowStore]);

  // Follow the replay: bring the current boundary's two steps into view, and refit when the
  // replay dock opens or closes (it changes the canvas size; wait for React Flow to measure).
  // Only on a change, not on mount (StrictMode runs mount effects twice).
  const followed = useRef({ highlight, replayOpen });
  useEffect(() => {
    if (followed.current.highlight === highlight && followed.current.replayOpen === replayOpen) return;
    followed.current = { highlight, replayOpen };
    const timer = setTimeout(() => {
      if (highlight) void fitView({ nodes: [highlight.producer, highlight.consumer].filter(Boolean).map((id) => ({ id })), padding: 0.3, maxZoom: 1, minZoom: READABLE_ZOOM, duration: 250 });
      else fitReadable(rf, flowStore);
    }, 60);
    return () => clearTimeout(timer);
  }, [highlight, replayOpen, fitView, rf, flowStore]);

  const onNodesChange = (changes: NodeChange<FlowNode>[]) => {
    const sizes: Record<string, { width: number; height: number }> = {};
    const moves: Record<string, XY> = {};
    const nudged = new Map<string, XY>();
    const nudgedInputs = new Map<string, XY>();
    for (const change of changes) {
      if (change.type === 'dimensions' && change.dimensions) sizes[change.id] = change.dimensions;
      else if (change.type === 'position' && change.position && change.dragging) moves[change.id] = change.position;
      // Arrow keys on a focused, selected card move the selection (React Flow's keyboard a11y);
      // a drag's last position change is left to onNodeDragStop, which makes it one undo step.
      else if (change.type === 'position' && change.position && !dragActive.current) {
        if (change.id.startsWith(INPUT_PREFIX)) nudgedInputs.set(change.id.slice(INPUT_PREFIX.length), change.position);
        else nudged.set(change.id, change.position);
      }
    }
    if (Object.keys(sizes).length) setMeasured((m) => ({ ...m, ...sizes }));
    if (Object.keys(moves).length) {
      setDragging((d) => ({ ...d, ...moves }));
      noteCanvasMoving();
    }
    if (nudged.size || nudgedInputs.size) s().moveSteps(nudged, nudgedInputs);
    // Click, shift-click and box select all arrive as select changes.
    const state = s();
    const next = nextSelection(changes, { steps: state.selectedStepIds, input: state.selectedInput }, INPUT_PREFIX);
    if (next?.input) state.selectInput(next.input);
    else if (next && (next.steps.length || state.selectedStepIds.length || state.selectedInput)) state.selectSteps(next.steps);
  };

  const onNodeDragStart: OnNodeDrag<FlowNode> = () => {
    dragActive.current = true;
  };
  // One move for the whole drag, however many nodes moved: one undo step.
  const onNodeDragStop: OnNodeDrag<FlowNode> = (_event, _node, moved) => {
    dragActive.current = false;
    const inputs = new Map(moved.filter((n) => n.type === 'chainInput').map((n) => [n.id.slice(INPUT_PREFIX.length), n.position]));
    s().moveSteps(new Map(moved.filter((n) => n.type === 'step').map((n) => [n.id, n.position])), inputs);
    setDragging({});
  };

  const onEdgesChange = (changes: EdgeChange<FlowEdge>[]) => {
    const selects = changes.filter((c) => c.type === 'select');
    if (selects.length === 0) return;
    const next = new Set(s().selectedEdgeIds);
    for (const c of selects) {
      if (c.selected) next.add(c.id);
      else next.delete(c.id);
    }
    s().setSelectedEdges([...next]);
  };

  const onConnect = (c: Connection) => {
    if (c.target.startsWith(INPUT_PREFIX)) return;
    if (c.source.startsWith(INPUT_PREFIX)) s().connectInput(c.source.slice(INPUT_PREFIX.length), c.target);
    else if (drawsLabelledBranches(chain, c.source, canvasRegistry)) setPendingBranch({ source: c.source, target: c.target });
    else s().connect(c.source, c.target);
  };
  const onChooseBranch = (choice: BranchChoice) => {
    if (pendingBranch) {
      const { source, target } = pendingBranch;
      s().applyEdit((c) => connectBranch(c, source, target, choice, canvasRegistry));
    }
    setPendingBranch(null);
  };
  const onCancelBranch = () => setPendingBranch(null);

  // A step that is some branch's target takes that route with it: ask first, naming the route.
  const onBeforeDelete: OnBeforeDelete<FlowNode, FlowEdge> = ({ nodes: gone }) => {
    const ids = gone.filter((n) => n.type === 'step').map((n) => n.id);
    const current = s().history?.present;
    const routes = current ? branchesInto(current, ids, canvasRegistry) : [];
    if (routes.length === 0) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => setBranchLoss({ steps: ids, routes, resolve }));
  };

  const onDelete: OnDelete<FlowNode, FlowEdge> = ({ nodes: gone, edges: cut }) => {
    const state = s();
    // Nodes and edges deleted together are one undo step.
    state.transact(() => {
      for (const edge of cut) {
        if (!edge.data) continue;
        if (edge.data.kind === 'branch') state.removeBranch(edge.data.source, edge.data.target);
        else state.disconnect(edge.data.target, edge.data.binding);
      }
      const steps = gone.filter((n) => n.type === 'step').map((n) => n.id);
      if (steps.length) state.removeSteps(steps);
      for (const n of gone) if (n.type === 'chainInput') state.removeInput(n.data.input.name);
    });
    state.setSelectedEdges([]);
  };

  const onDrop = (e: DragEvent) => {
    const kind = e.dataTransfer.getData(STEP_DRAG_TYPE);
    if (!kind) return;
    e.preventDefault();
    const at = screenToFlowPosition({ x: e.clientX, y: e.clientY });
    s().addStep(kind, { x: at.x - NODE_HALF.x, y: at.y - NODE_HALF.y });
  };

  // Stable identities: React Flow stores each changed handler prop with its own store update.
  const handlers = useStableHandlers({
    onNodesChange, onEdgesChange, onNodeDragStart, onNodeDragStop, onConnect, onBeforeDelete, onDelete, onDrop,
    isValidConnection: (c: Connection | FlowEdge) => c.source !== c.target && !c.target.startsWith(INPUT_PREFIX),
    onDragOver: (e: DragEvent) => {
      if (e.dataTransfer.types.includes(STEP_DRAG_TYPE)) {
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
      }
    },
    onEdgeMouseEnter: (e: MouseEvent, edge: FlowEdge) => s().setHoveredEdge({ id: edge.id, x: e.clientX, y: e.clientY }),
    onEdgeMouseMove: (e: MouseEvent, edge: FlowEdge) => s().setHoveredEdge({ id: edge.id, x: e.clientX, y: e.clientY }),
    onEdgeMouseLeave: () => s().setHoveredEdge(null),
  });

  return (
    <>
      <ReactFlow<FlowNode, FlowEdge>
        ref={rasterRef}
        onMove={onMove}
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        edgeTypes={edgeTypes}
        {...handlers}
        // Space and Delete are the designer's (use-designer-keys, use-space-held): React Flow's own
        // handlers take Space from Monaco, whose focus is not a text box it recognises.
        deleteKeyCode={null}
        panActivationKeyCode={null}
        multiSelectionKeyCode={multiSelectKeys}
        // The select tool (touchpads): a drag draws a box, scrolling pans, pinch zooms; middle or right
        // drag still pans, and so does any drag while Space is held.
        selectionOnDrag={boxSelect}
        panOnDrag={boxSelect ? selectPanButtons : true}
        panOnScroll={tool === 'select'}
        // Dragging moves a card without opening it in the inspector (which loads the editors); click selects.
        selectNodesOnDrag={false}
        // Cards off screen are not mounted.
        onlyRenderVisibleElements={benchCanvasProps.onlyRenderVisibleElements}
        onInit={onCanvasInit}
        defaultViewport={opening ?? undefined}
        minZoom={0.2}
        proOptions={proOptions}
      >
        {chain.steps.length <= DOT_GRID_MAX_STEPS && <Background gap={20} size={1} color="#e4e4e7" />}
        {chain.steps.length === 0 && <EmptyChainHint hasInputs={chain.inputs.length > 0} />}
        <Controls showInteractive={false} />
        <CanvasMiniMap nodes={nodes} />
        {/* One component for the page's life (the module's default export), so no remount: createElement, as JSX on a value from state reads to the linter as a component made during render. */}
        {/* Its own boundary still: what the layer loads lazily (its dialogs) suspends the layer, never the cards. */}
        {DesignerLayer && <Suspense fallback={null}>{createElement(DesignerLayer, { chain })}</Suspense>}
        {pendingBranch && <BranchLabelPrompt key={`${pendingBranch.source}->${pendingBranch.target}`} chain={chain} pending={pendingBranch} onChoose={onChooseBranch} onCancel={onCancelBranch} />}
      </ReactFlow>
      {branchLoss && (
        <ConfirmBranchLoss
          loss={branchLoss}
          onAnswer={(yes) => {
            branchLoss.resolve(yes);
            setBranchLoss(null);
          }}
        />
      )}
    </>
  );
}

export function Canvas() {
  const chain = useEditorStore(selectChain);
  useEffect(noteCanvasCommitted, []);
  // A chain opens fitted to the canvas's size: the first chain waits for this box to be in the
  // page, later ones read it as they mount.
  // (React sets a callback ref in the commit, and the render it causes comes before the paint.)
  const [box, setBox] = useState<HTMLDivElement | null>(null);
  return (
    <div className="canvas" data-testid="canvas" ref={setBox}>
      {chain ? box && <ChainCanvas key={chain.id} chain={chain} box={box} /> : <div className="canvas-empty">Open or create a chain to start.</div>}
    </div>
  );
}
