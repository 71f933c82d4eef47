import { create } from 'zustand';
import { createAnalysisSlice, type AnalysisSlice } from './analysis-slice.ts';
import { createGraphSlice, type GraphSlice } from './graph-slice.ts';
import { createHistorySlice, type HistorySlice } from './history-slice.ts';
import { createSelectionSlice, type SelectionSlice } from './selection-slice.ts';
import { createViewSlice, type ViewSlice } from './view-slice.ts';
import { createWorkspaceSlice, type WorkspaceSlice } from './workspace-slice.ts';

/** The one editor store, combined from slices; middleware, if any, goes here only. */
export type EditorState = GraphSlice & SelectionSlice & WorkspaceSlice & HistorySlice & ViewSlice & AnalysisSlice;

// The open chain is history.present (selectChain): edits advance the history, undo moves in it.
export const useEditorStore = create<EditorState>()((...a) => ({
  ...createGraphSlice(...a),
  ...createSelectionSlice(...a),
  ...createWorkspaceSlice(...a),
  ...createHistorySlice(...a),
  ...createViewSlice(...a),
  ...createAnalysisSlice(...a),
}));
