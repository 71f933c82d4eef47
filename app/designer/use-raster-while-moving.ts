import { useCallback, useRef } from 'react';

const SETTLE_MS = 180;

/**
 * While the view pans or zooms, the canvas gets `is-moving`, which puts `will-change: transform`
 * on React Flow's viewport: the browser then moves and scales the cards it already rasterised
 * instead of re-rasterising every card at each new zoom (the largest cost of a zoom frame with
 * software raster). A short pause after the last move removes the class, so the cards are drawn
 * sharp again at the final zoom (left on, scaled text stays blurry).
 *
 * Returns a callback ref for the React Flow wrapper and the handler for its `onMove`.
 */
export function useRasterWhileMoving(): [(el: HTMLDivElement | null) => void, () => void] {
  const element = useRef<HTMLDivElement | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const setElement = useCallback((el: HTMLDivElement | null) => {
    element.current = el;
  }, []);
  const onMove = useCallback(() => {
    const el = element.current;
    if (!el) return;
    if (!el.classList.contains('is-moving')) el.classList.add('is-moving');
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      timer.current = null;
      el.classList.remove('is-moving');
    }, SETTLE_MS);
  }, []);
  return [setElement, onMove];
}
