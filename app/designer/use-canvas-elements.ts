import { useStore, type ReactFlowState } from '@xyflow/react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { Chain, StepDef } from '../../src/chain/index.ts';
import type { StepMetrics } from '../../src/inspect/index.ts';
import { buildEdges, buildNodes, type FlowEdge, type FlowNode, type Highlight, type StepRunInfo } from '../canvas/flow-elements.ts';
import { useEditorStore } from '../stores/editor-store.ts';
import { selectLintCounts, selectLintErrorCounts, selectProblemCounts, selectUnansweredEdgeIds, selectUnsavedEdits } from '../stores/selectors.ts';
import type { UnsavedEdit } from '../stores/view-slice.ts';
import type { StepRegistry } from '../../src/steps/index.ts';
import { canvasRegistry } from './canvas-registry.ts';
import { createLightRegistry } from './light-registry.ts';
import { parseAfterPaint } from './parse-after-paint.ts';
import { keepEdgeIdentity, keepIdentity, presize, withDrag, withMeasured } from './canvas-nodes.ts';
import { placeEdgeLabels } from './edge-labels.ts';
import { CULL_MIN_EDGES, cullEdges, cullKey, edgeExtents, windowOf } from './edge-cull.ts';

type XY = { x: number; y: number };

export interface CanvasInputs {
  selectedStepId: string | null;
  selectedStepIds: readonly string[];
  selectedInput: string | null;
  selectedEdgeIds: readonly string[];
  runInfo: ReadonlyMap<string, StepRunInfo>;
  highlight: Highlight | null;
  lossy: ReadonlySet<string>;
  metrics: ReadonlyMap<string, StepMetrics> | undefined;
  measured: Readonly<Record<string, { width: number; height: number }>>;
  dragging: Readonly<Record<string, XY>>;
}

const noDrag: Readonly<Record<string, XY>> = {};
const noSizes: Readonly<Record<string, { width: number; height: number }>> = {};

/** How many summary lines a step's card shows, as the card's size needs it (7: six and a "more"). */
const summaryLinesBy = (registry: StepRegistry) => (step: StepDef): number => {
  const def = registry.get(step.kind);
  const parsed = def?.config.safeParse(step.config);
  if (!def || !parsed?.success) return 1;
  const n = def.summary(parsed.data).length;
  return n > 6 ? 7 : n;
};

/**
 * From this many steps, a chain's first paint reads the configs as they are (light-registry.ts):
 * parsing each one for its edges and card size was the main cost React Flow alone does not have.
 * Just after that paint every config is parsed and the canvas derived again from the parsed ones.
 */
export const LIGHT_FIRST_PAINT_STEPS = 400;
const lightRegistry = createLightRegistry(canvasRegistry);
/** Chains (by id) whose configs were parsed after their first paint: edits of them stay exact. */
const parsedChains = new Set<string>();
/** Chain objects the light registry was found to draw exactly as the parsed configs (parse-after-paint.ts). */
const drawnAlike = new WeakSet<Chain>();

/** Data edges whose boundary leaves a decision open get a warning mark and class. */
function markUnanswered(edges: FlowEdge[], unanswered: ReadonlySet<string>): FlowEdge[] {
  if (unanswered.size === 0) return edges;
  return edges.map((e) => (unanswered.has(e.id) ? { ...e, label: `⚠ ${String(e.label ?? '')}`, className: `${e.className ?? ''} edge-unanswered` } : e));
}

/** Before React Flow has measured its pane: where fitView (zoom clamped to 0.5–1) will look. */
function openingKey(nodes: readonly FlowNode[]): string {
  if (nodes.length === 0) return '';
  let x1 = Infinity, y1 = Infinity, x2 = -Infinity, y2 = -Infinity;
  for (const n of nodes) {
    x1 = Math.min(x1, n.position.x);
    y1 = Math.min(y1, n.position.y);
    x2 = Math.max(x2, n.position.x + (n.measured?.width ?? 212));
    y2 = Math.max(y2, n.position.y + (n.measured?.height ?? 150));
  }
  const width = Math.max(400, window.innerWidth - 560);
  const height = Math.max(300, window.innerHeight - 44);
  const zoom = Math.min(1, Math.max(0.5, Math.min(width / (x2 - x1), height / (y2 - y1)) / 1.2));
  return cullKey(width / 2 - ((x1 + x2) / 2) * zoom, height / 2 - ((y1 + y2) / 2) * zoom, zoom, width, height);
}

/** Problem counts plus design errors and each editor's unsaved (invalid) text, on their steps. */
function withExtra(counts: ReadonlyMap<string, number>, lintErrors: ReadonlyMap<string, number>, unsaved: readonly UnsavedEdit[]): ReadonlyMap<string, number> {
  if (!unsaved.length && !lintErrors.size) return counts;
  const next = new Map(counts);
  for (const [id, n] of lintErrors) next.set(id, (next.get(id) ?? 0) + n);
  for (const e of unsaved) next.set(e.stepId, (next.get(e.stepId) ?? 0) + 1);
  return next;
}

/** Remembers the last arrays so a rebuild hands React Flow the same objects for unchanged items. */
function createIdentityCache() {
  let nodes: FlowNode[] = [];
  let edges: FlowEdge[] = [];
  return {
    nodes: (next: FlowNode[]) => (nodes = keepIdentity(nodes, next)),
    edges: (next: FlowEdge[]) => (edges = keepEdgeIdentity(edges, next)),
  };
}

/**
 * The canvas's nodes and edges for a chain. Rebuilt when the chain, selection, run or view
 * change; a drag only swaps the dragged nodes' positions, and unchanged nodes and edges keep
 * their identity, so per-frame work stays proportional to what moved, not to the chain.
 */
export function useCanvasElements(chain: Chain, o: CanvasInputs): { nodes: FlowNode[]; edges: FlowEdge[] } {
  const [cache] = useState(createIdentityCache);
  // Problem and lint counts arrive with the analysis slice (a worker's, for large chains): the
  // nodes and edges are re-derived when they land.
  const problemCounts = useEditorStore(selectProblemCounts);
  const lintCounts = useEditorStore(selectLintCounts);
  const lintErrorCounts = useEditorStore(selectLintErrorCounts);
  const unanswered = useEditorStore(selectUnansweredEdgeIds);
  const { selectedStepId, selectedStepIds, selectedInput, selectedEdgeIds, runInfo, highlight, lossy, metrics, measured, dragging } = o;
  const unsaved = useEditorStore(selectUnsavedEdits);
  const [, setParsed] = useState(0);
  const light = chain.steps.length >= LIGHT_FIRST_PAINT_STEPS && (!parsedChains.has(chain.id) || drawnAlike.has(chain));
  const registry = light ? lightRegistry : canvasRegistry;
  useEffect(() => {
    if (!light || parsedChains.has(chain.id)) return;
    return parseAfterPaint(chain, lightRegistry, canvasRegistry, (alike) => {
      parsedChains.add(chain.id);
      // Alike: what is on the canvas is what the parsed configs draw; the registry stays as it is
      // for this chain object (an edit makes a new one, which is derived from parsed configs).
      if (alike) drawnAlike.add(chain);
      else setParsed((n) => n + 1);
    });
  }, [chain, light]);
  const base = useMemo(() => {
    const built = buildNodes(chain, registry, {
      selectedStepId, selectedStepIds: new Set(selectedStepIds), selectedInput, problemCounts: withExtra(problemCounts, lintErrorCounts, unsaved), lintCounts,
      runInfo, measured: noSizes, dragging: noDrag, highlight, metrics,
    });
    return cache.nodes(presize(built, summaryLinesBy(registry)));
  }, [cache, chain, registry, selectedStepId, selectedStepIds, selectedInput, runInfo, highlight, metrics, problemCounts, lintCounts, lintErrorCounts, unsaved]);
  // Measured sizes and drag positions touch only their nodes; the rest keep their objects.
  const sized = useMemo(() => withMeasured(base, measured), [base, measured]);
  const nodes = useMemo(() => withDrag(sized, dragging), [sized, dragging]);
  const all = useMemo(
    () => markUnanswered(buildEdges(chain, registry, selectedEdgeIds, highlight, lossy), unanswered),
    [chain, registry, selectedEdgeIds, highlight, lossy, unanswered],
  );
  // Large chains: only edges near the view go to React Flow (see edge-cull.ts). The key changes
  // every half screen of panning, not every frame, so this component does not re-render per frame.
  const large = all.length >= CULL_MIN_EDGES;
  const key = useStore(useCallback((s: ReactFlowState) => (!large ? '' : s.width ? cullKey(s.transform[0], s.transform[1], s.transform[2], s.width, s.height) : 'opening'), [large]));
  // Which nodes are dragged, not where: the cull does not need recomputing every drag frame.
  const draggedIds = Object.keys(dragging).join(' ');
  // Where each edge lies changes with the cards, not with the view: a pan that moves the window
  // only filters these numbers.
  const extents = useMemo(() => (large ? edgeExtents(all, sized) : null), [all, sized, large]);
  const edges = useMemo(() => {
    if (!extents) return cache.edges(placeEdgeLabels(all, sized));
    const win = windowOf(key === 'opening' ? openingKey(sized) : key);
    const dragged = new Set(draggedIds.split(' '));
    return cache.edges(cullEdges(all, extents, win, (e) => !!e.selected || dragged.has(e.source) || dragged.has(e.target) || highlight?.edgeId === e.id));
  }, [cache, all, extents, key, sized, draggedIds, highlight]);
  return { nodes, edges };
}
