import { useEffect, useState } from 'react';
import { canvasOwnsKey } from './key-scope.ts';

/**
 * Whether Space is held down for the canvas (hold Space and drag to pan with the select tool).
 * Replaces React Flow's pan activation key, which takes Space from Monaco. Re-renders the canvas
 * only when the state flips.
 */
export function useSpaceHeld(): boolean {
  const [held, setHeld] = useState(false);
  useEffect(() => {
    const down = (e: KeyboardEvent) => {
      if (e.code !== 'Space' || e.ctrlKey || e.metaKey || e.altKey || !canvasOwnsKey(e)) return;
      const target = e.target instanceof Element ? e.target : null;
      // A focused button or link keeps Space for itself (it presses it).
      if (target?.closest('button, a[href], [role="button"]')) return;
      e.preventDefault();
      setHeld(true);
    };
    const up = (e: KeyboardEvent) => {
      if (e.code === 'Space') setHeld(false);
    };
    const reset = () => setHeld(false);
    window.addEventListener('keydown', down);
    window.addEventListener('keyup', up);
    window.addEventListener('blur', reset);
    return () => {
      window.removeEventListener('keydown', down);
      window.removeEventListener('keyup', up);
      window.removeEventListener('blur', reset);
    };
  }, []);
  return held;
}
