/**
 * Runs `task` once the page is idle (at the latest after `timeoutMs`), so work that is not on
 * screen yet — reading the run list from IndexedDB — does not compete with the canvas's first
 * paint. Returns a cancel function for effects.
 */
export function whenIdle(task: () => void, timeoutMs = 400): () => void {
  const g = globalThis as typeof globalThis & { requestIdleCallback?: typeof requestIdleCallback; cancelIdleCallback?: typeof cancelIdleCallback };
  if (g.requestIdleCallback && g.cancelIdleCallback) {
    const id = g.requestIdleCallback(task, { timeout: timeoutMs });
    return () => g.cancelIdleCallback?.(id);
  }
  const id = setTimeout(task, 0);
  return () => clearTimeout(id);
}
