import type { ServerResponse } from 'node:http';
import { encodeExportResponse, encodeStatus, type PartialSuccess } from './otlp-proto.ts';
import type { Encoding } from './payload.ts';

/**
 * Answers as the OTLP/HTTP spec says: the response in the request's encoding (protobuf for a
 * protobuf request, JSON otherwise), an Export*ServiceResponse on success (partial_success
 * when something was rejected) and a google.rpc.Status on failure.
 */

/** google.rpc.Code values used in the Status bodies. */
const RPC_CODE: Record<number, number> = { 400: 3, 404: 5, 405: 12, 413: 3, 415: 3, 429: 8, 500: 13, 503: 14 };

function send(res: ServerResponse, status: number, encoding: Encoding, body: Uint8Array | string, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    'Content-Type': encoding === 'protobuf' ? 'application/x-protobuf' : 'application/json',
    'Content-Length': String(Buffer.byteLength(body)),
    ...headers,
  });
  res.end(body);
}

export function sendExportResponse(res: ServerResponse, encoding: Encoding, signal: 'traces' | 'logs', partial: PartialSuccess | null): void {
  if (encoding === 'protobuf') return send(res, 200, encoding, encodeExportResponse(signal, partial));
  const countKey = signal === 'traces' ? 'rejectedSpans' : 'rejectedLogRecords';
  // int64 as a decimal string, as OTLP/JSON writes 64-bit integers.
  const body = partial ? { partialSuccess: { [countKey]: String(partial.rejected), errorMessage: partial.message } } : {};
  send(res, 200, encoding, JSON.stringify(body));
}

/**
 * An error status with its Status body. `close` ends the connection after the answer: for a
 * body that was not read to its end (too large, refused before reading), so the rest of it is
 * not taken as the next request.
 */
export function sendStatus(res: ServerResponse, status: number, encoding: Encoding, message: string, options: { close?: boolean; headers?: Record<string, string> } = {}): void {
  const code = RPC_CODE[status] ?? 2;
  const body = encoding === 'protobuf' ? encodeStatus(code, message) : JSON.stringify({ code, message });
  send(res, status, encoding, body, { ...(options.close ? { Connection: 'close' } : {}), ...options.headers });
}
