import { Position, type NodeChange, type NodeHandle } from '@xyflow/react';
import type { StepDef } from '../../src/chain/index.ts';
import type { FlowEdge, FlowNode } from '../canvas/flow-elements.ts';

/**
 * Canvas helpers that keep React Flow's per-frame work small on large chains: nodes carry a
 * size estimate and handle positions up front (so onlyRenderVisibleElements can cull without
 * mounting every card once), unchanged nodes keep their object identity across rebuilds (React
 * Flow then skips them), and a drag only replaces the dragged nodes.
 */

/** The card's fixed width and the heights of its parts (px), from app/styles/canvas.css. */
const CARD = { width: 212, chrome: 17, head: 18, badgeHead: 20, nameLine: 16.9, idLine: 12, summaryTop: 13, line: 16.5, nameChars: 26, idChars: 30 };

/**
 * The size a step card will measure, so React Flow can place and cull it before it renders.
 * Exact for the common card (name and id on one line each, summary lines, badges); when it is
 * off (a long name wraps differently), React Flow measures the card and that one node updates.
 */
export function estimateStepSize(step: StepDef, summaryLines: number, badge = false): { width: number; height: number } {
  const nameLines = Math.max(1, Math.ceil((step.name || step.id).length / CARD.nameChars));
  const idLines = Math.max(1, Math.ceil(step.id.length / CARD.idChars));
  const lines = Math.min(summaryLines, 7);
  const height = CARD.chrome + (badge ? CARD.badgeHead : CARD.head) + nameLines * CARD.nameLine + idLines * CARD.idLine + (lines > 0 ? CARD.summaryTop + lines * CARD.line : 0);
  return { width: CARD.width, height: Math.round(height) };
}

// One shared size and handle list per card height: rebuilt nodes then compare equal by identity.
const sizes = new Map<number, { measured: { width: number; height: number }; handles: NodeHandle[] }>();

function sized(width: number, height: number) {
  let entry = sizes.get(height);
  if (!entry || entry.measured.width !== width) {
    const y = height / 2 - 5;
    entry = {
      measured: { width, height },
      handles: [
        { id: null, type: 'target', position: Position.Left, x: -5, y, width: 10, height: 10 },
        { id: null, type: 'source', position: Position.Right, x: width - 5, y, width: 10, height: 10 },
      ],
    };
    sizes.set(height, entry);
  }
  return entry;
}

/** Gives steps an estimated size and handle positions (until React Flow has measured them). */
export function presize(nodes: FlowNode[], summaryLines: (step: StepDef) => number): FlowNode[] {
  return nodes.map((node) => {
    if (node.type !== 'step' || node.measured) return node;
    const d = node.data;
    if (d.run || d.metrics) return node;
    const size = estimateStepSize(d.step, summaryLines(d.step), d.problems > 0 || d.warnings > 0);
    return { ...node, ...sized(size.width, size.height) };
  });
}

/**
 * Sizes React Flow measured, applied to only those nodes (the rest keep their objects). A
 * measured node drops the estimated handles so edges attach where its handles really are.
 */
export function withMeasured(nodes: FlowNode[], measured: Readonly<Record<string, { width: number; height: number }>>): FlowNode[] {
  if (Object.keys(measured).length === 0) return nodes;
  return nodes.map((n) => {
    const m = measured[n.id];
    if (!m || (n.measured === m && !n.handles)) return n;
    const { handles: _estimated, ...rest } = n;
    return { ...rest, measured: m } as FlowNode;
  });
}

const sameData = (a: Record<string, unknown>, b: Record<string, unknown>) => {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => a[k] === b[k]);
};

/**
 * Returns `next` with every node that equals its previous version replaced by that previous
 * object, so React Flow (and the memoised node components) see no change for it.
 */
export function keepIdentity(prev: readonly FlowNode[], next: FlowNode[]): FlowNode[] {
  if (prev.length === 0) return next;
  const before = new Map(prev.map((n) => [n.id, n]));
  let reused = 0;
  const out = next.map((n) => {
    const p = before.get(n.id);
    if (
      p && p.type === n.type && p.selected === n.selected && p.draggable === n.draggable && p.measured === n.measured && p.handles === n.handles &&
      p.position.x === n.position.x && p.position.y === n.position.y && sameData(p.data, n.data)
    ) {
      reused++;
      return p;
    }
    return n;
  });
  return reused === out.length && prev.length === out.length ? (prev as FlowNode[]) : out;
}

/** Same for edges: unchanged edges keep their object. */
export function keepEdgeIdentity(prev: readonly FlowEdge[], next: FlowEdge[]): FlowEdge[] {
  if (prev.length === 0) return next;
  const before = new Map(prev.map((e) => [e.id, e]));
  let reused = 0;
  const out = next.map((e) => {
    const p = before.get(e.id);
    if (p && p.label === e.label && p.className === e.className && p.selected === e.selected && p.animated === e.animated && p.zIndex === e.zIndex && p.source === e.source && p.target === e.target && p.type === e.type && p.data?.labelAt?.x === e.data?.labelAt?.x && p.data?.labelAt?.y === e.data?.labelAt?.y) {
      reused++;
      return p;
    }
    return e;
  });
  return reused === out.length && prev.length === out.length ? (prev as FlowEdge[]) : out;
}

/** Positions of nodes being dragged, applied to only those nodes. */
export function withDrag(nodes: FlowNode[], dragging: Readonly<Record<string, { x: number; y: number }>>): FlowNode[] {
  const ids = Object.keys(dragging);
  if (ids.length === 0) return nodes;
  return nodes.map((n) => {
    const at = dragging[n.id];
    return at ? { ...n, position: at } : n;
  });
}

export interface CanvasSelection {
  steps: readonly string[];
  input: string | null;
}

/**
 * Folds React Flow's select changes (click, shift-click, box select) into the step selection.
 * Null when the changes select nothing. An input is selected only on its own.
 */
export function nextSelection(changes: readonly NodeChange<FlowNode>[], current: CanvasSelection, inputPrefix: string): CanvasSelection | null {
  let touched = false;
  const steps = new Set(current.steps);
  let input = current.input;
  for (const change of changes) {
    if (change.type !== 'select') continue;
    touched = true;
    if (change.id.startsWith(inputPrefix)) {
      const name = change.id.slice(inputPrefix.length);
      if (change.selected) input = name;
      else if (input === name) input = null;
    } else if (change.selected) steps.add(change.id);
    else steps.delete(change.id);
  }
  if (!touched) return null;
  return steps.size > 0 ? { steps: [...steps], input: null } : { steps: [], input };
}
