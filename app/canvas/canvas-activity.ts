/**
 * "The canvas is moving": React Flow's onMove and node drags report here, once per frame of a
 * pan, zoom or drag. Background work that competes for the CPU (an eval batch in its worker)
 * listens and holds itself back until the motion stops. Nothing listens when nothing runs, so
 * a report then costs one empty loop.
 */
type Listener = () => void;

const listeners = new Set<Listener>();

export function noteCanvasMoving(): void {
  for (const listener of listeners) listener();
}

/** Calls `listener` on every report until the returned function is called. */
export function onCanvasMoving(listener: Listener): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}
