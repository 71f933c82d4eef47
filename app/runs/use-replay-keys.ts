import { useEffect } from 'react';
import { useRunStore } from '../stores/run-store.ts';

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) || target.closest('.monaco-editor') !== null;
}

/** ← and → step boundary by boundary while the replay is open (not while typing). */
export function useReplayKeys(active: boolean): void {
  useEffect(() => {
    if (!active) return;
    const onKey = (e: KeyboardEvent) => {
      // A focused separator moves with the arrows (the library marks those keys handled).
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || isTyping(e.target)) return;
      if (e.target instanceof HTMLElement && e.target.closest('[role="separator"]')) return;
      // The replay is hidden while a view stands in front of the designer.
      if (document.querySelector('[data-covers-designer]')) return;
      if (e.key === 'ArrowLeft') useRunStore.getState().moveBoundary(-1);
      else if (e.key === 'ArrowRight') useRunStore.getState().moveBoundary(1);
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [active]);
}
