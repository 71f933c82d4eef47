import { useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { PaneLayout } from './layout-context.ts';
import { usePaneStore } from './panes/pane-store.ts';

/**
 * The app's pane layout for the context: which panes are folded, and the fold toggle.
 * Re-renders when a pane folds or unfolds, not on every pixel of a drag.
 */
export function usePaneLayoutState(): PaneLayout {
  const collapsed = usePaneStore(
    useShallow((s) => ({ sidebar: s.panes.sidebar.collapsed, inspector: s.panes.inspector.collapsed, replay: s.panes.replay.collapsed })),
  );
  return useMemo(() => ({ collapsed, toggle: (pane) => usePaneStore.getState().toggle(pane) }), [collapsed]);
}
