import { useEffect, useState } from 'react';

/**
 * What a promise brings, held in state: `now()` when it is already in, else set by an ordinary
 * state update when `load()` settles. For parts rendered once their chunk is in without going
 * through React.lazy/Suspense (see CanvasWhenLoaded in App.tsx). `load` and `onError` should be
 * module-level functions, so the effect runs once.
 */
export function useLoaded<T>(now: () => T | null, load: () => Promise<T>, onError?: (error: Error) => void): T | null {
  // A function-valued T (a component) must be stored as it is, not called: hence the updaters.
  const [value, setValue] = useState<T | null>(() => now());
  useEffect(() => {
    if (value !== null) return;
    let live = true;
    load().then((loaded) => live && setValue(() => loaded), (error: Error) => onError?.(error));
    return () => void (live = false);
  }, [value, load, onError]);
  return value;
}
