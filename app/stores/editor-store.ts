import { create } from 'zustand';
import { createGraphSlice, type GraphSlice } from './graph-slice.ts';
import { createHistorySlice, withHistory, type HistorySlice } from './history-slice.ts';
import { createSelectionSlice, type SelectionSlice } from './selection-slice.ts';
import { createViewSlice, type ViewSlice } from './view-slice.ts';
import { createWorkspaceSlice, type WorkspaceSlice } from './workspace-slice.ts';

/** The one editor store, combined from slices; middleware, if any, goes here only. */
export type EditorState = GraphSlice & SelectionSlice & WorkspaceSlice & HistorySlice & ViewSlice;

// withHistory: every new chain object becomes the history's present (undo/redo over all edits).
export const useEditorStore = create<EditorState>()(withHistory((...a) => ({
  ...createGraphSlice(...a),
  ...createSelectionSlice(...a),
  ...createWorkspaceSlice(...a),
  ...createHistorySlice(...a),
  ...createViewSlice(...a),
})));
