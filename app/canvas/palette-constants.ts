export const STEP_DRAG_TYPE = 'application/x-seamscope-step';
/** Roughly half a node, so a new node lands centred on the point rather than hanging off it. */
export const NODE_HALF = { x: 106, y: 50 };
