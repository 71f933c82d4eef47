import { create } from 'zustand';
import { createGraphSlice, type GraphSlice } from './graph-slice.ts';
import { createSelectionSlice, type SelectionSlice } from './selection-slice.ts';
import { createWorkspaceSlice, type WorkspaceSlice } from './workspace-slice.ts';

/** The one editor store, combined from slices; middleware, if any, goes here only. */
export type EditorState = GraphSlice & SelectionSlice & WorkspaceSlice;

export const useEditorStore = create<EditorState>()((...a) => ({
  ...createGraphSlice(...a),
  ...createSelectionSlice(...a),
  ...createWorkspaceSlice(...a),
}));
