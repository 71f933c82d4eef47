import type { StateCreator } from 'zustand';
import type { EditorState } from './editor-store.ts';

/**
 * What the inspector shows: one step, one input, or (both null) the chain itself. Edge
 * selection is kept so the canvas can delete a selected edge with the keyboard.
 */
export interface SelectionSlice {
  selectedStepId: string | null;
  /** Every selected step (shift-click, box select); `selectedStepId` is set when exactly one is. */
  selectedStepIds: readonly string[];
  selectedInput: string | null;
  selectedEdgeIds: readonly string[];
  selectStep(stepId: string | null): void;
  selectSteps(stepIds: readonly string[]): void;
  selectInput(name: string | null): void;
  setSelectedEdges(ids: readonly string[]): void;
}

export const createSelectionSlice: StateCreator<EditorState, [], [], SelectionSlice> = (set) => ({
  selectedStepId: null,
  selectedStepIds: [],
  selectedInput: null,
  selectedEdgeIds: [],
  selectStep: (stepId) => set({ selectedStepId: stepId, selectedStepIds: stepId ? [stepId] : [], selectedInput: null }),
  selectSteps: (stepIds) => set({ selectedStepIds: stepIds, selectedStepId: stepIds.length === 1 ? (stepIds[0] ?? null) : null, selectedInput: null }),
  selectInput: (name) => set({ selectedInput: name, selectedStepId: null, selectedStepIds: [] }),
  setSelectedEdges: (ids) => set({ selectedEdgeIds: ids }),
});
