import { isRecord } from '../files/json-value.ts';
import { afterSend } from './after-send.ts';
import { ProviderError, parseRetryAfter } from './errors.ts';
import type { Scrubber } from './scrub.ts';
import type { CallContext } from './types.ts';

/**
 * Transport helpers shared by the HTTP providers. Only web-platform APIs (fetch, Headers,
 * Response) are used, so this runs unchanged in a tab, in Node tests and in the CLI.
 */

export { isRecord };

/** Joins a base URL and a path with exactly one slash, whatever the user typed. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/** The entries whose value is set (for request bodies: an unset setting is not sent at all). */
export function definedOnly(entries: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(entries)) if (value !== undefined) out[key] = value;
  return out;
}

/** JSON.parse that answers undefined instead of throwing: endpoints do send garbage. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function snippet(text: string, max = 300): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** A rejected fetch or body read: cancelled by us, timed out, or the network failed. */
export function transportFailure(err: unknown, signal: AbortSignal | undefined, whileReading: boolean, status: number | null = null): ProviderError {
  const name = nameOf(err);
  const reasonName = signal?.aborted ? nameOf(signal.reason) : '';
  if (name === 'TimeoutError' || reasonName === 'TimeoutError') return new ProviderError('timeout', describe(err), { status });
  if (name === 'AbortError' || signal?.aborted) return new ProviderError('aborted', describe(err), { status });
  // A body that breaks off after the headers arrived is a cut response, not an unreachable host.
  return new ProviderError(whileReading ? 'stream_cut' : 'network', describe(err), { status });
}

function nameOf(value: unknown): string {
  return isRecord(value) && typeof value.name === 'string' ? value.name : '';
}

function describe(err: unknown): string {
  if (err instanceof Error) {
    const cause = err.cause instanceof Error ? ` (${err.cause.message})` : '';
    return `${err.message}${cause}`;
  }
  return String(err);
}

/**
 * POSTs a JSON body. Fetch rejections become ProviderErrors; HTTP statuses are left to the caller.
 * With the provider's scrubber, the body (recorded later as the request as sent, scrubbed of the
 * configured keys only) is sealed from the text just serialised when that text shows no key in
 * it: the record then keeps it without walking every message and schema keyword again.
 */
export async function postJson(ctx: CallContext, url: string, headers: Record<string, string>, body: object, scrubber?: Scrubber): Promise<Response> {
  // Called without a receiver on purpose: `ctx.fetch(...)` would bind `this` to ctx and
  // browsers throw "Illegal invocation" when window.fetch runs with a foreign `this`.
  const doFetch = ctx.fetch;
  const text = JSON.stringify(body);
  try {
    // A redirect is not followed: it would carry the key's header (x-api-key is not dropped
    // across origins) to wherever the endpoint points. Not following also spares fetch the
    // copy of the request (and its body) it keeps to replay on a redirect.
    const answer = doFetch(url, { method: 'POST', headers, body: text, signal: ctx.signal, redirect: 'error' });
    // The body is sealed while the endpoint answers, not before the request leaves. An answer
    // handled first finds it unsealed, and the record's scrub walks it instead: slower, as safe.
    if (scrubber?.keysOnly.sealJsonText) afterSend(() => scrubber.keysOnly.sealJsonText?.(text, body));
    return await answer;
  } catch (err) {
    if (!ctx.signal?.aborted && /redirect/i.test(describe(err))) {
      throw new ProviderError('bad_response', 'it answered with a redirect, which is not followed (the request carries the API key): set the endpoint to the address it redirects to');
    }
    throw transportFailure(err, ctx.signal, false);
  }
}

export async function readText(res: Response, signal: AbortSignal | undefined): Promise<string> {
  try {
    return await res.text();
  } catch (err) {
    throw transportFailure(err, signal, true, res.status);
  }
}

/**
 * The wait the endpoint asked for: `retry-after-ms` (OpenAI's precise header) wins over
 * `retry-after` (seconds or an HTTP date), as in openai-node's client.
 */
export function retryAfterFromHeaders(headers: Headers): number | null {
  const ms = headers.get('retry-after-ms');
  if (ms !== null) {
    const value = Number(ms);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  return parseRetryAfter(headers.get('retry-after'));
}

export function isEventStream(res: Response): boolean {
  return (res.headers.get('content-type') ?? '').toLowerCase().includes('text/event-stream');
}
