import type { StateCreator } from 'zustand';
import type { EditorState } from './editor-store.ts';

/** An edge under the pointer, with where the pointer is (for the contract card tooltip). */
export interface HoveredEdge {
  id: string;
  x: number;
  y: number;
}

export type Overlay = 'shortcuts' | 'revisions' | null;

/**
 * What a drag on the empty canvas does: `pan` moves the view (Shift+drag selects with a box), as
 * with a mouse; `select` draws a selection box, and two-finger scroll pans — for touchpads, where
 * Shift+drag is awkward. Kept per device, not per chain (app/persistence/preferences.ts).
 */
export type CanvasTool = 'pan' | 'select';

/**
 * An editor whose text is not valid and so is not in the chain (which keeps the last valid
 * value). It blocks a run and shows in Problems and on the card until it is fixed or discarded.
 */
export interface UnsavedEdit {
  stepId: string;
  /** The field's label, e.g. "Output schema". */
  field: string;
  /** Why the text was not saved, e.g. "Not valid JSON: Unexpected token". */
  message: string;
}

/**
 * Designer view state that is not part of the chain: the hovered edge, the open overlay, the
 * compounding panel, a conflict with another tab editing the same chain, and the canvas tool
 * (the only one kept, per device, by a subscriber in app/persistence/preferences.ts).
 */
export interface ViewSlice {
  hoveredEdge: HoveredEdge | null;
  overlay: Overlay;
  compoundingOpen: boolean;
  canvasTool: CanvasTool;
  /** The open chain was saved by another tab while this one had unsaved edits. */
  tabConflict: { chainId: string } | null;
  /** Editor key (step id / field) → text that could not be saved. */
  unsavedEdits: Readonly<Record<string, UnsavedEdit>>;
  setUnsavedEdit(key: string, edit: UnsavedEdit | null): void;
  setHoveredEdge(edge: HoveredEdge | null): void;
  setOverlay(overlay: Overlay): void;
  setCompoundingOpen(open: boolean): void;
  setCanvasTool(tool: CanvasTool): void;
  setTabConflict(conflict: { chainId: string } | null): void;
}

export const createViewSlice: StateCreator<EditorState, [], [], ViewSlice> = (set) => ({
  hoveredEdge: null,
  overlay: null,
  compoundingOpen: false,
  canvasTool: 'pan',
  tabConflict: null,
  unsavedEdits: {},
  setUnsavedEdit: (key, edit) => set((s) => {
    const current = s.unsavedEdits[key];
    if (!edit && !current) return {};
    if (edit && current && current.message === edit.message && current.field === edit.field && current.stepId === edit.stepId) return {};
    const next = { ...s.unsavedEdits };
    if (edit) next[key] = edit;
    else delete next[key];
    return { unsavedEdits: next };
  }),
  setHoveredEdge: (hoveredEdge) => set({ hoveredEdge }),
  setOverlay: (overlay) => set({ overlay }),
  setCompoundingOpen: (compoundingOpen) => set({ compoundingOpen }),
  setCanvasTool: (canvasTool) => set({ canvasTool }),
  setTabConflict: (tabConflict) => set({ tabConflict }),
});
