export const STEP_DRAG_TYPE = 'application/x-seamscope-step';
/** Roughly half a node, so a new node lands centred on the point rather than hanging off it. */
export const NODE_HALF = { x: 106, y: 50 };

/** The smallest text on a full card (kind, id, summary lines, badges, an input's label), in CSS px (app/styles/canvas.css). */
export const CARD_TEXT_PX = 11;
/** A card's title (the step's name), in CSS px. */
export const CARD_TITLE_PX = 13;
/** The smallest a person should have to read on screen: card text never renders below this. */
export const MIN_SCREEN_TEXT_PX = 10;
/** Card titles at a fit are at least this large on screen. */
export const MIN_SCREEN_TITLE_PX = 11;

/**
 * Below this zoom cards show only kind, name and status, in large type (the overview): a full
 * card's smallest text would render under MIN_SCREEN_TEXT_PX.
 */
export const DETAIL_ZOOM = MIN_SCREEN_TEXT_PX / CARD_TEXT_PX;

/**
 * The lowest zoom Fit, first open and the fit after Auto layout go to: full cards, titles at
 * MIN_SCREEN_TITLE_PX or more. A chain wider than the view at this zoom shows its start; the
 * minimap says where the rest is. Rounded up so it sits just above DETAIL_ZOOM, never on it.
 */
export const READABLE_ZOOM = Math.ceil(Math.max(DETAIL_ZOOM, MIN_SCREEN_TITLE_PX / CARD_TITLE_PX) * 100) / 100;
