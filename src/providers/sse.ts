import { createParser } from 'eventsource-parser';
import { ProviderError } from './errors.ts';
import { transportFailure } from './http.ts';

export interface SseMessage {
  /** The `event:` field; undefined when the server sent only `data:` lines (OpenAI). */
  event: string | undefined;
  data: string;
  /**
   * True for an event completed only by the end of the body (no closing blank line).
   * Real OpenAI-compatible servers end with `data: [DONE]\n` and a single newline, so that
   * event must count; but a JSON payload cut there is a cut stream, not a protocol error.
   */
  atEof: boolean;
}

/** Return 'stop' to finish reading early (after OpenAI's `[DONE]`). */
export type SseHandler = (message: SseMessage) => 'stop' | void;

/**
 * Reads a `text/event-stream` body to its end, handing each event to `onEvent`. A body that
 * breaks off becomes `stream_cut` (or `aborted` when our own signal cancelled it); errors
 * thrown by the handler propagate unchanged.
 */
export async function readSse(res: Response, signal: AbortSignal | undefined, onEvent: SseHandler): Promise<void> {
  if (!res.body) throw new ProviderError('bad_response', 'the streamed response has no body');
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let stopped = false;
  let atEof = false;
  let failure: unknown = null;
  const parser = createParser({
    onEvent: (msg) => {
      if (stopped) return;
      try {
        if (onEvent({ event: msg.event, data: msg.data, atEof }) === 'stop') stopped = true;
      } catch (err) {
        failure = err;
        stopped = true;
      }
    },
  });
  try {
    while (!stopped) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (err) {
        throw transportFailure(err, signal, true, res.status);
      }
      if (chunk.done) {
        atEof = true;
        // Terminates a trailing event that lacked its blank line (see SseMessage.atEof).
        parser.feed(`${decoder.decode()}\n\n`);
        break;
      }
      parser.feed(decoder.decode(chunk.value, { stream: true }));
    }
    if (failure !== null) throw failure;
  } finally {
    // Releases the connection when we stop before the server closes it.
    if (stopped) reader.cancel().catch(() => undefined);
    else reader.releaseLock();
  }
}
