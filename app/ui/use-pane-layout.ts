import { useMemo, useState } from 'react';
import { useDefaultLayout, usePanelRef, type OnPanelResize, type PanelImperativeHandle } from 'react-resizable-panels';
import type { FoldablePane, PaneLayout } from './layout-context.ts';

type PanelSize = Parameters<NonNullable<OnPanelResize>>[0];

/** A folded replay keeps its header's first line: the fold button, the run and Close stay in reach. */
export const REPLAY_COLLAPSED_PX = 40;

/** How small a pane can be and still count as folded (the library rounds sizes a little). */
const FOLDED: Record<FoldablePane, number> = { sidebar: 1, inspector: 1, replay: REPLAY_COLLAPSED_PX + 1 };

/**
 * The app's pane sizes, kept in this device's localStorage (one entry per group; the rows group
 * keeps one layout with the replay and one without). Re-renders when a pane folds or unfolds,
 * not on every pixel of a drag.
 */
export function usePaneLayoutState(replayOpen: boolean) {
  const rows = useDefaultLayout({ id: 'seamscope.rows', panelIds: replayOpen ? ['pane.workspace', 'pane.replay'] : ['pane.workspace'] });
  const columns = useDefaultLayout({ id: 'seamscope.columns' });
  const sidebar = usePanelRef();
  const inspector = usePanelRef();
  const replay = usePanelRef();
  const [collapsed, setCollapsed] = useState<Record<FoldablePane, boolean>>({ sidebar: false, inspector: false, replay: false });

  const layout = useMemo(() => {
    const refs: Record<FoldablePane, React.RefObject<PanelImperativeHandle | null>> = { sidebar, inspector, replay };
    const track = (pane: FoldablePane) => (size: PanelSize) => {
      const folded = size.inPixels <= FOLDED[pane];
      setCollapsed((c) => (c[pane] === folded ? c : { ...c, [pane]: folded }));
    };
    const context: PaneLayout = {
      collapsed,
      toggle: (pane) => {
        const panel = refs[pane].current;
        if (!panel) return;
        if (panel.isCollapsed()) panel.expand();
        else panel.collapse();
      },
    };
    return { refs, context, onResize: { sidebar: track('sidebar'), inspector: track('inspector'), replay: track('replay') } };
  }, [collapsed, sidebar, inspector, replay]);
  return { rows, columns, ...layout };
}
