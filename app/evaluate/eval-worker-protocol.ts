import type { EvalProgress } from '../../src/eval/index.ts';
import type { StoredEvalJob } from './eval-batch.ts';

/**
 * Messages between the tab and the eval worker. The tab sends a stored batch to run (or the
 * bench's generated one) and may cancel it; the worker answers with progress (at most 4 times
 * a second) and one final message. Results and runs go to IndexedDB from the worker, so only
 * counts cross the boundary. While the person pans, zooms or drags on the canvas the tab sends
 * `hold` (at most every HOLD_RESEND_MS): start no new item for `ms` (interaction-hold.ts).
 */
export type EvalWorkerRequest =
  | { type: 'start'; job: StoredEvalJob }
  | { type: 'bench'; chainText: string; document: string; items: number }
  | { type: 'cancel' }
  | { type: 'hold'; ms: number };

export type EvalWorkerResponse =
  | { type: 'progress'; progress: EvalProgress }
  | { type: 'done'; cancelled: boolean }
  | { type: 'error'; message: string };
