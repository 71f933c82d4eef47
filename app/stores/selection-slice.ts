import type { StateCreator } from 'zustand';
import type { EditorState } from './editor-store.ts';

/**
 * What the inspector shows: one step, one input, or (both null) the chain itself. Edge
 * selection is kept so the canvas can delete a selected edge with the keyboard.
 */
export interface SelectionSlice {
  selectedStepId: string | null;
  selectedInput: string | null;
  selectedEdgeIds: readonly string[];
  selectStep(stepId: string | null): void;
  selectInput(name: string | null): void;
  setSelectedEdges(ids: readonly string[]): void;
}

export const createSelectionSlice: StateCreator<EditorState, [], [], SelectionSlice> = (set) => ({
  selectedStepId: null,
  selectedInput: null,
  selectedEdgeIds: [],
  selectStep: (stepId) => set({ selectedStepId: stepId, selectedInput: null }),
  selectInput: (name) => set({ selectedInput: name, selectedStepId: null }),
  setSelectedEdges: (ids) => set({ selectedEdgeIds: ids }),
});
