import { hashString } from '../../chain/hash.ts';

/**
 * Deterministic OTLP ids: exporting the same run twice yields the same trace, so a collector
 * deduplicates re-exports and tests can compare exports byte for byte. Ids are hashes of the
 * run id and the span's place in the run, never random. Not cryptographic; they only need to
 * be distinct within a run, and OTel forbids all-zero ids, which the last digit rules out.
 */
function hexOf(parts: readonly (string | number)[], length: number): string {
  const key = JSON.stringify(parts);
  let hex = '';
  for (let salt = 0; hex.length < length; salt++) hex += hashString(`${salt}:${key}`);
  return hex.slice(0, length - 1) + '1';
}

/** 32 hex characters for the whole run. */
export function traceIdFor(runId: string): string {
  return hexOf(['trace', runId], 32);
}

/** 16 hex characters for one span: `['run']`, `['step', id]`, `['attempt', id, unit, n]`. */
export function spanIdFor(runId: string, ...place: (string | number)[]): string {
  return hexOf(['span', runId, ...place], 16);
}
