/**
 * Runs `work` once the request just started has gone out, while its answer is awaited: in Node
 * on the next turn of the event loop (setImmediate, after the request's write), so work a call
 * needs later but not to send does not hold the request back. Where there is no setImmediate
 * (a tab) it runs at once, as it did before it was deferred.
 *
 * Only for work whose result is not needed before the answer is handled, or that is correct
 * either way: an answer can come back before the next turn, and is then handled first.
 */
const nextTurn: ((work: () => void) => unknown) | null = typeof globalThis.setImmediate === 'function' ? globalThis.setImmediate : null;

export function afterSend(work: () => void): void {
  if (nextTurn) nextTurn(work);
  else work();
}
