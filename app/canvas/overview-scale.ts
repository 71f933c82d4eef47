import { useEffect } from 'react';
import { DETAIL_ZOOM, MIN_SCREEN_TEXT_PX } from './palette-constants.ts';

/**
 * How the overview draws a card at a zoom (full cards above DETAIL_ZOOM):
 * - `far`: kind, name (two lines) and status in large type;
 * - `compact`: the card is too small for two text lines at a readable size: status and name on one line;
 * - `blocks`: not even a short name fits at a readable size: no text, the card's status and its name on hover.
 */
export type OverviewBand = 'detail' | 'far' | 'compact' | 'blocks';

/** Below this the far card's kind line and two-line name no longer fit its height at MIN_SCREEN_TEXT_PX. */
export const COMPACT_ZOOM = 0.5;
/** Below this a card is narrower on screen than about eight characters of MIN_SCREEN_TEXT_PX text. */
export const BLOCKS_ZOOM = 0.25;

export function overviewBand(zoom: number): OverviewBand {
  if (zoom >= DETAIL_ZOOM) return 'detail';
  if (zoom >= COMPACT_ZOOM) return 'far';
  return zoom >= BLOCKS_ZOOM ? 'compact' : 'blocks';
}

/** The flow-space font size that renders at MIN_SCREEN_TEXT_PX on screen at this zoom. */
export const overviewTextPx = (zoom: number) => MIN_SCREEN_TEXT_PX / zoom;

/**
 * Keeps the overview's text at a readable size on screen: sets `data-overview` (the band) and
 * `--overview-px` on the canvas box as the zoom changes. Written straight to the element from a
 * store subscription, so a zoom frame re-renders no component; the CSS (canvas.css) does the rest.
 */
/** What the hook reads of React Flow's store (its zoom is `transform[2]`). */
interface ZoomStore {
  getState(): { transform: readonly [number, number, number] };
  subscribe(listener: (state: { transform: readonly [number, number, number] }) => void): () => void;
}

export function useOverviewScale(box: HTMLElement, store: ZoomStore): void {
  useEffect(() => {
    let last = NaN;
    const apply = (zoom: number) => {
      // Hundredths of a zoom step: a finer change moves text by under a tenth of a pixel.
      const z = Math.round(zoom * 100) / 100;
      if (z === last) return;
      last = z;
      const band = overviewBand(z);
      if (band === 'detail') box.removeAttribute('data-overview');
      else box.setAttribute('data-overview', band);
      box.style.setProperty('--overview-px', `${overviewTextPx(z).toFixed(2)}px`);
    };
    apply(store.getState().transform[2]);
    const stop = store.subscribe((s) => apply(s.transform[2]));
    return () => {
      stop();
      box.removeAttribute('data-overview');
    };
  }, [box, store]);
}
