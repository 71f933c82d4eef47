export const STEP_DRAG_TYPE = 'application/x-seamscope-step';
/** Roughly half a node, so a new node lands centred on the point rather than hanging off it. */
export const NODE_HALF = { x: 106, y: 50 };

/**
 * The lowest zoom Fit (and the fit after Auto layout) goes to: card text stays about 9 px or
 * larger. A chain wider than the view at this zoom shows its middle; the minimap shows the rest.
 */
export const READABLE_ZOOM = 0.7;

/** Below this zoom cards show only kind, name and status, in large type (level of detail). */
export const DETAIL_ZOOM = 0.55;
