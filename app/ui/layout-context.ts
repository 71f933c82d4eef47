import { createContext, useContext } from 'react';

/** The panes a person can fold away: the left sidebar, the inspector and the replay dock. */
export type FoldablePane = 'sidebar' | 'inspector' | 'replay';

export interface PaneLayout {
  /** Whether a pane is folded away now (updated as its panel resizes, by drag, keyboard or button). */
  collapsed: Record<FoldablePane, boolean>;
  /** Folds a pane away, or brings it back at the size it had. */
  toggle: (pane: FoldablePane) => void;
}

const none: PaneLayout = { collapsed: { sidebar: false, inspector: false, replay: false }, toggle: () => {} };

export const PaneLayoutContext = createContext<PaneLayout>(none);

/** The app's pane layout; components outside it (tests, the bench page) get panes that never fold. */
export function usePaneLayout(): PaneLayout {
  return useContext(PaneLayoutContext);
}
