import { isRecord } from '../../../src/files/index.ts';
import { create } from 'zustand';
import type { PaneState } from './pane-size.ts';

/** The panes whose size a person sets: the sidebar, the inspector and the replay dock. */
export type PaneId = 'sidebar' | 'inspector' | 'replay';

export interface PaneSizes {
  panes: Record<PaneId, PaneState>;
  /**
   * The replay's source, intermediate and received columns as proportions (the pixel widths
   * they had when last set, used as flex weights so they scale with the dock); null: equal.
   */
  replayColumns: [number, number, number] | null;
}

interface PaneStore extends PaneSizes {
  /**
   * The sizes to keep on this device: set when a drag or key press ends, not on every frame of
   * it. app/persistence/preferences.ts writes them to storage when this changes.
   */
  kept: PaneSizes;
  /** Sets a pane's size while it is dragged (not yet kept). */
  setPane: (id: PaneId, state: PaneState) => void;
  setReplayColumns: (weights: [number, number, number]) => void;
  /** Folds a pane away or brings it back at its size, and keeps that. */
  toggle: (id: PaneId) => void;
  /** Keeps the current sizes (called when a drag or key press ends). */
  commit: () => void;
  /** The sizes this device kept last time (read at start-up). */
  restore: (sizes: PaneSizes) => void;
}
/** The top bar's height: the replay's first size is a share of what is below it. */
const TOP_BAR = 44;

/** What the canvas row keeps when the replay is as tall as it goes: its toolbar, zoom controls and minimap clear of each other. */
export const WORKSPACE_MIN = 190;

/**
 * The replay's first height: 60 % of what is under the top bar, so its three panes open about
 * 350 px tall at 900 px and 245 px at 720 px under the header, steps and verdict lines, and the
 * canvas keeps the rest (never less than WORKSPACE_MIN).
 */
export function replayOpeningSize(windowHeight: number): number {
  const below = windowHeight - TOP_BAR;
  return Math.max(180, Math.min(Math.round(below * 0.6), below - WORKSPACE_MIN));
}

function defaults(): PaneSizes {
  const height = typeof window === 'undefined' ? 900 : window.innerHeight;
  return {
    panes: {
      sidebar: { size: 256, collapsed: false },
      inspector: { size: 360, collapsed: false },
      replay: { size: replayOpeningSize(height), collapsed: false },
    },
    replayColumns: null,
  };
}

const isSize = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v > 0 && v < 100_000;

/**
 * This device's sizes, read defensively: storage can hold an older shape or be edited by hand,
 * and a bad entry only falls back to its default.
 */
export function readPaneSizes(raw: string | null): PaneSizes {
  const base = defaults();
  if (!raw) return base;
  let stored: unknown;
  try {
    stored = JSON.parse(raw);
  } catch {
    return base;
  }
  if (!stored || typeof stored !== 'object') return base;
  const { panes, replayColumns } = stored as Partial<Record<keyof PaneSizes, unknown>>;
  const out: PaneSizes = { panes: { ...base.panes }, replayColumns: null };
  for (const id of Object.keys(base.panes) as PaneId[]) {
    const p = isRecord(panes) ? panes[id] : undefined;
    if (p && typeof p === 'object' && isSize((p as PaneState).size)) {
      out.panes[id] = { size: Math.round((p as PaneState).size), collapsed: (p as PaneState).collapsed === true };
    }
  }
  if (Array.isArray(replayColumns) && replayColumns.length === 3 && replayColumns.every(isSize)) {
    out.replayColumns = replayColumns as [number, number, number];
  }
  return out;
}

const initial = defaults();

export const usePaneStore = create<PaneStore>((set) => ({
  ...initial,
  kept: initial,
  setPane: (id, state) => set((s) => ({ panes: { ...s.panes, [id]: state } })),
  setReplayColumns: (weights) => set({ replayColumns: weights }),
  toggle: (id) =>
    set((s) => {
      const panes = { ...s.panes, [id]: { ...s.panes[id], collapsed: !s.panes[id].collapsed } };
      return { panes, kept: { panes, replayColumns: s.replayColumns } };
    }),
  commit: () => set((s) => ({ kept: { panes: s.panes, replayColumns: s.replayColumns } })),
  restore: (sizes) => set({ ...sizes, kept: sizes }),
}));
