/**
 * Provider failures, one table of codes. `retryable` tells the engine whether another
 * attempt can help (429 rate limit, 5xx, overloaded, network) or cannot (auth, bad request,
 * spend limit).
 */
export type ProviderErrorCode =
  | 'network'
  | 'timeout'
  | 'aborted'
  | 'rate_limited'
  | 'quota_exceeded'
  | 'overloaded'
  | 'server_error'
  | 'auth'
  | 'bad_request'
  | 'not_found'
  | 'stream_cut'
  | 'bad_response'
  | 'budget';

/** What each failure says (the Python runtime words its errors the same: src/export/shared-tables.ts). */
export const PROVIDER_ERROR_MESSAGES: Readonly<Record<ProviderErrorCode, string>> = {
  network: 'Could not reach the endpoint',
  timeout: 'The endpoint did not answer in time',
  aborted: 'The call was cancelled',
  rate_limited: 'The endpoint is rate limiting requests',
  quota_exceeded: 'The account has hit its spend or quota limit',
  overloaded: 'The endpoint is overloaded',
  server_error: 'The endpoint had a server error',
  auth: 'The endpoint refused the API key',
  bad_request: 'The endpoint rejected the request',
  not_found: 'The endpoint or model was not found',
  stream_cut: 'The response stream ended before it was complete',
  bad_response: 'The endpoint sent a response that is not valid for its protocol',
  budget: 'The run budget is spent',
};

/** The failures another attempt can fix. */
export const RETRYABLE_CODES: ReadonlySet<ProviderErrorCode> = new Set<ProviderErrorCode>(['network', 'timeout', 'rate_limited', 'overloaded', 'server_error', 'stream_cut']);

export class ProviderError extends Error {
  readonly code: ProviderErrorCode;
  readonly status: number | null;
  readonly retryable: boolean;
  /** From a Retry-After header, in milliseconds, when the endpoint sent one. */
  readonly retryAfterMs: number | null;
  /** The endpoint's own error body, for the trace. */
  readonly body: unknown;

  constructor(code: ProviderErrorCode, detail?: string, opts: { status?: number | null; retryAfterMs?: number | null; body?: unknown } = {}) {
    super(detail ? `${PROVIDER_ERROR_MESSAGES[code]}: ${detail}` : PROVIDER_ERROR_MESSAGES[code]);
    this.name = 'ProviderError';
    this.code = code;
    this.status = opts.status ?? null;
    this.retryable = RETRYABLE_CODES.has(code);
    this.retryAfterMs = opts.retryAfterMs ?? null;
    this.body = opts.body;
  }
}

/**
 * The same failure with its message and body scrubbed of keys (see scrub.ts): what the engine
 * records. Code, status and Retry-After are kept, so retries behave exactly as before.
 */
export function scrubProviderError(error: ProviderError, scrub: { text(s: string): string; value<T>(v: T): T }): ProviderError {
  const copy = new ProviderError(error.code, undefined, { status: error.status, retryAfterMs: error.retryAfterMs, body: scrub.value(error.body) });
  copy.message = scrub.text(error.message);
  return copy;
}

/** Parses a Retry-After header (seconds or an HTTP date) into milliseconds. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
