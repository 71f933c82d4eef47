/**
 * How a resizable pane's size follows a drag or a key press. Pure, so the rules are tested
 * without a browser: a pane has a size in pixels and may be folded; dragging below half its
 * minimum folds it (when it can fold), dragging back out unfolds it at the minimum or more.
 */
export interface PaneLimits {
  min: number;
  max: number;
  /** Whether dragging (or Enter) can fold the pane away. */
  collapsible: boolean;
}

export interface PaneState {
  size: number;
  collapsed: boolean;
}

/** The pane after a drag that would make it `raw` pixels (measured from where the drag began). */
export function resolveSize(raw: number, limits: PaneLimits): PaneState {
  const max = Math.max(limits.min, limits.max);
  if (limits.collapsible && raw < limits.min / 2) return { size: limits.min, collapsed: true };
  return { size: Math.round(Math.min(max, Math.max(limits.min, raw))), collapsed: false };
}

/** A folded pane being dragged starts from nothing; an open one from its size. */
export function startSize(state: PaneState, foldedSize: number): number {
  return state.collapsed ? foldedSize : state.size;
}

/**
 * Moves the border between two neighbouring panes by `delta` pixels: the first grows, the
 * second shrinks by as much, and neither goes under its minimum.
 */
export function shiftBorder(first: number, second: number, delta: number, minFirst: number, minSecond: number): [number, number] {
  const total = first + second;
  const a = Math.min(total - minSecond, Math.max(minFirst, first + delta));
  return [Math.round(a), Math.round(total - a)];
}

/** Arrow keys move a separator this far; with Shift, a fine step. */
export const KEY_STEP = 40;
export const FINE_KEY_STEP = 8;

export type SeparatorKey = { kind: 'move'; delta: number } | { kind: 'min' } | { kind: 'max' } | { kind: 'toggle' } | null;

/**
 * What a key on a separator means (the WAI-ARIA window splitter pattern): arrows along the
 * axis move it (`delta` is along the axis: positive is right or down), Home and End go to the
 * limits, Enter folds or unfolds.
 */
export function separatorKey(key: string, shift: boolean, axis: 'x' | 'y'): SeparatorKey {
  const step = shift ? FINE_KEY_STEP : KEY_STEP;
  const forward = axis === 'x' ? 'ArrowRight' : 'ArrowDown';
  const back = axis === 'x' ? 'ArrowLeft' : 'ArrowUp';
  if (key === forward) return { kind: 'move', delta: step };
  if (key === back) return { kind: 'move', delta: -step };
  if (key === 'Home') return { kind: 'min' };
  if (key === 'End') return { kind: 'max' };
  if (key === 'Enter') return { kind: 'toggle' };
  return null;
}
