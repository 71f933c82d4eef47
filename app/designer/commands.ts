import type { ReactFlowInstance } from '@xyflow/react';
import { copySteps, isFragment, pasteSteps, type ChainFragment } from '../../src/chain/index.ts';
import { branchesInto } from '../../src/chain/branch-edit.ts';
import { parseStrictJson } from '../../src/files/index.ts';
import type { FlowEdge, FlowNode } from '../canvas/flow-elements.ts';
import { fitReadable, type FlowStore } from '../canvas/fit-view.ts';
import { useEditorStore } from '../stores/editor-store.ts';
import { canvasRegistry } from './canvas-registry.ts';
import { estimateStepSize } from './canvas-nodes.ts';
import { selectChain } from '../stores/selectors.ts';
import { stepRegistry } from '../../src/steps/index.ts';

/**
 * Designer commands behind the toolbar and the keyboard: copy and paste (across chains in this
 * tab, and through the system clipboard across tabs), select all, auto layout and fit view.
 * They read the store and call its actions; each edit is one undo step.
 */
type Flow = ReactFlowInstance<FlowNode, FlowEdge>;
const editor = () => useEditorStore.getState();

interface Clip {
  fragment: ChainFragment;
  chainId: string;
  pastes: number;
}
let clip: Clip | null = null;

/** The steps a command acts on: the multi-selection, else the one selected step. */
export function selectedSteps(): string[] {
  const { selectedStepIds, selectedStepId } = editor();
  return selectedStepIds.length ? [...selectedStepIds] : selectedStepId ? [selectedStepId] : [];
}

/** Copies the selection; returns the fragment as JSON for the system clipboard, or null. */
export function copySelection(): string | null {
  const chain = selectChain(editor());
  const ids = selectedSteps();
  if (!chain || ids.length === 0) return null;
  clip = { fragment: copySteps(chain, ids), chainId: chain.id, pastes: 0 };
  editor().pushToast('info', `Copied ${ids.length} step${ids.length === 1 ? '' : 's'}`);
  return JSON.stringify(clip.fragment);
}

/**
 * Copies the selection and removes it, unless a route from a step left behind goes to it: the
 * route cannot travel in the clip, so cutting would drop it unseen. Then the steps stay, copied,
 * and the toast names the route (Delete asks before removing a step and its routes).
 */
export function cutSelection(): string | null {
  const json = copySelection();
  const ids = selectedSteps();
  const chain = selectChain(editor());
  if (!json || !ids.length || !chain) return json;
  const lost = branchesInto(chain, ids, canvasRegistry).filter((r) => !ids.includes(r.from));
  if (lost.length) {
    const words = lost.map((r) => (r.label === 'otherwise' ? `${r.from} → ${r.to} (otherwise)` : `${r.from} → ${r.to} (when "${r.label}")`)).join(', ');
    editor().pushToast('error', `Copied, not cut: cutting would remove the route ${words}. Press Delete to remove the step and its route (it asks first).`);
    return json;
  }
  editor().removeSteps(ids);
  return json;
}

/** Parses system-clipboard text; a fragment copied in another tab becomes this tab's clip. */
export function adoptClipboardText(text: string): boolean {
  try {
    // Clipboard text can come from anywhere: read it as strictly as a chain file.
    const read = parseStrictJson(text);
    if (!read.ok) return false;
    const value = read.value;
    if (!isFragment(value)) return false;
    if (clip && JSON.stringify(clip.fragment) === text) return true;
    clip = { fragment: value, chainId: '', pastes: 0 };
    return true;
  } catch {
    return false;
  }
}

/**
 * Pastes the clip. Into the chain it came from, each paste lands 40 px further down-right; into
 * another chain, the pasted group is centred in the view.
 */
export function paste(rf: Flow | null): string[] {
  const chain = selectChain(editor());
  if (!chain || !clip || clip.fragment.steps.length === 0) return [];
  let offset = { x: 40 * (clip.pastes + 1), y: 40 * (clip.pastes + 1) };
  if (clip.chainId !== chain.id && rf) {
    const xs = clip.fragment.steps.map((s) => s.position.x);
    const ys = clip.fragment.steps.map((s) => s.position.y);
    const pane = document.querySelector('.react-flow')?.getBoundingClientRect();
    const centre = pane ? rf.screenToFlowPosition({ x: pane.left + pane.width / 2, y: pane.top + pane.height / 2 }) : { x: 0, y: 0 };
    offset = {
      x: centre.x - (Math.min(...xs) + Math.max(...xs) + 212) / 2 + 40 * clip.pastes,
      y: centre.y - (Math.min(...ys) + Math.max(...ys) + 120) / 2 + 40 * clip.pastes,
    };
  }
  clip.pastes++;
  return editor().applyPaste(pasteSteps(chain, clip.fragment, offset, stepRegistry));
}

export function duplicateSelection(): void {
  const chain = selectChain(editor());
  const ids = selectedSteps();
  if (!chain || ids.length === 0) return;
  editor().applyPaste(pasteSteps(chain, copySteps(chain, ids), { x: 40, y: 40 }, stepRegistry));
}

export function selectAll(): void {
  const chain = selectChain(editor());
  if (chain) editor().selectSteps(chain.steps.map((s) => s.id));
}

/** Fit: the whole chain when its titles stay readable, else its start (app/canvas/fit-view.ts). */
export function fitAll(rf: Flow | null, store: FlowStore): void {
  if (rf) fitReadable(rf, store);
}

/** Lays the chain out left to right with dagre (loaded on first use), cards as measured; one undo step. */
export async function autoLayoutChain(rf: Flow | null, store: FlowStore): Promise<void> {
  const chain = selectChain(editor());
  if (!chain || chain.steps.length === 0) return;
  const { layoutChain } = await import('../../src/chain/layout.ts');
  const current = selectChain(editor());
  if (current !== chain) return;
  const summary = (kind: string, config: unknown) => {
    const def = canvasRegistry.get(kind);
    const parsed = def?.config.safeParse(config);
    return def && parsed?.success ? Math.min(7, def.summary(parsed.data).length) : 1;
  };
  // Measured sizes where React Flow has them (cards on screen), estimates for the rest.
  const sizes = new Map<string, { width: number; height: number }>();
  for (const node of rf?.getNodes() ?? []) {
    if (node.measured?.width && node.measured.height) sizes.set(node.id, { width: node.measured.width, height: node.measured.height });
  }
  for (const step of chain.steps) if (!sizes.has(step.id)) sizes.set(step.id, estimateStepSize(step, summary(step.kind, step.config)));
  const layout = layoutChain(chain, { sizes, nodeWidth: 212, nodeHeight: 120, rankSep: 110, nodeSep: 48 }, canvasRegistry);
  editor().moveSteps(layout.steps, layout.inputs);
  // Wait for React Flow to take the new positions before fitting.
  requestAnimationFrame(() => requestAnimationFrame(() => fitAll(rf, store)));
}
