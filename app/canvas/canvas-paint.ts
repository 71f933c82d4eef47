/**
 * The canvas is what a person opens the app to see, so it goes first. Its chunk starts loading
 * as soon as the app's own script runs (not after the checks' and the side panels' chunks, which
 * queued in front of it on the browser's few connections), and the work a drawn canvas does not
 * need (the checks, the chain library, the run list and the storage behind it, the canvas
 * toolbar) waits until the canvas has committed and two frames have been produced, so it runs
 * neither in front of the canvas's chunks nor in the frames that put the cards on screen.
 */
export const canvasModule = import('./Canvas.tsx');

/** The canvas module once it has loaded, else null (App.tsx renders it without suspending). */
let loaded: Awaited<typeof canvasModule> | null = null;
canvasModule.then((m) => void (loaded = m), () => undefined);
export const loadedCanvasModule = () => loaded;

// A canvas that never paints (its chunk failed, or a background tab produces no frames) must
// not hold the rest of the app back for ever.
const FALLBACK_MS = 4000;

let markPainted: () => void = () => undefined;
const painted = new Promise<void>((resolve) => {
  markPainted = resolve;
  setTimeout(resolve, FALLBACK_MS);
});

/** Settles once the canvas has painted (or after FALLBACK_MS). */
export function afterCanvasPaint(): Promise<void> {
  return painted;
}

/**
 * Called by the canvas when it first commits. The first animation frame after the commit is the
 * one that paints it; the callback of the next one runs once that frame has been produced.
 */
export function noteCanvasCommitted(): void {
  requestAnimationFrame(() => requestAnimationFrame(() => markPainted()));
}
