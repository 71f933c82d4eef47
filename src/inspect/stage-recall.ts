import type { Boundary } from '../trace/replay.ts';

/**
 * Recall against gold ids at a seam, measured twice: on what the producing stage
 * output, and on the text the consumer was actually sent once its input budget had cut what it
 * cut. A reranker's output can score higher than the text sent (say 0.79 against 0.74): the
 * difference is a silent truncation of the fifth chunk that no stage metric could see.
 */
export interface StageRecall {
  /** Gold ids the item names (sections or chunks). */
  gold: number;
  /** How many ids the stage output (its k). */
  k: number;
  /** Gold ids found in the stage's output, ÷ gold. */
  output: number;
  /** Gold ids found in the text sent to the consumer for this binding, ÷ gold; null when the consumer made no model call. */
  sent: number | null;
  /** Gold ids in the output that the text sent lacks (cut by the budget, or never rendered). */
  lostInPrompt: string[];
}

const MAX_VALUES = 100_000;
const ID_KEY = /(^|_)ids?$|[a-z]Ids?$/;

/** The values under id-named keys (`section_id`, `chunkId`, `ranked_ids`, `id`), bounded: a trace is untrusted. */
function idValues(value: unknown, out: string[] = [], depth = 0, underIdKey = false): string[] {
  if (out.length >= MAX_VALUES || depth > 64) return out;
  if (typeof value === 'string' || typeof value === 'number') {
    if (underIdKey) out.push(String(value).trim());
  } else if (Array.isArray(value)) for (const v of value) idValues(v, out, depth + 1, underIdKey);
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) idValues(v, out, depth + 1, ID_KEY.test(k));
  return out;
}

/**
 * Whether `id` occurs in `text` as a whole id: "(a)(2)" does not occur inside "(a)(2)(A)", nor
 * "c1" inside "c12". An id is delimited by anything that is neither a letter, a digit, nor the
 * opening of a further part ("(", ".", "-" followed by more id).
 */
export function containsId(text: string, id: string): boolean {
  if (!id) return false;
  for (let at = text.indexOf(id); at >= 0; at = text.indexOf(id, at + 1)) {
    const before = text[at - 1] ?? '';
    const after = text.slice(at + id.length, at + id.length + 2);
    const joinedBefore = /[\p{L}\p{N})]/u.test(before);
    const joinedAfter = /^[\p{L}\p{N}(]/u.test(after) || /^[.-][\p{L}\p{N}]/u.test(after);
    if (!joinedBefore && !joinedAfter) return true;
  }
  return false;
}

/** The text the consumer received for the boundary's binding (its placeholders, after the budget). */
function sentText(boundary: Boundary): string | null {
  if (!boundary.received) return null;
  const own = boundary.received.segments.filter((s) => s.kind === `binding:${boundary.binding}` || s.kind.startsWith(`binding:${boundary.binding}.`));
  return own.map((s) => s.text).join('\n');
}

/**
 * @example
 * const r = stageRecall(boundary, ['(a)(3)(C)(ii)', '(b)(1)']);
 * if (r && r.sent !== null && r.sent < r.output) console.log('the budget cut gold:', r.lostInPrompt);
 */
export function stageRecall(boundary: Boundary, goldIds: readonly string[]): StageRecall | null {
  const gold = [...new Set(goldIds.map((g) => g.trim()).filter(Boolean))];
  const output = [...new Set(idValues(boundary.intermediate))];
  // A stage that outputs no ids (a summary, an answer) is not measured by recall.
  if (gold.length === 0 || output.length === 0) return null;
  const inOutput = gold.filter((g) => output.includes(g));
  const text = sentText(boundary);
  const inSent = text === null ? null : gold.filter((g) => containsId(text, g));
  return {
    gold: gold.length, k: output.length,
    output: inOutput.length / gold.length,
    sent: inSent === null ? null : inSent.length / gold.length,
    lostInPrompt: inSent === null ? [] : inOutput.filter((g) => !inSent.includes(g)),
  };
}
