import protobuf from 'protobufjs';
import descriptor from './proto/otlp-descriptor.json' with { type: 'json' };

/**
 * OTLP/HTTP protobuf in and out, decoded by protobufjs from the OTLP proto definitions
 * (`proto/`, see its README), into the OTLP/JSON shape the trace importer reads: lowerCamelCase
 * keys, trace and span ids as hex, enums as numbers, 64-bit integers as decimal strings, bytes
 * as base64. One importer then serves both encodings.
 *
 * protobufjs checks for us what a hostile payload tries first: a length past the end of the
 * buffer, nesting past 100 messages (Reader.recursionLimit, protoc's default) and, since the
 * files are proto3, invalid UTF-8 in a string field (utf8_validation VERIFY). Each throws,
 * and the caller answers 400.
 */
const root = protobuf.Root.fromJSON(descriptor as protobuf.INamespace);
const type = (name: string) => root.lookupType(name);
const traceRequest = type('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest');
const traceResponse = type('opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse');
const logsRequest = type('opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest');
const logsResponse = type('opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse');
const rpcStatus = type('google.rpc.Status');

// json: NaN and ±Infinity doubles as the strings OTLP/JSON uses; defaults off, so an absent
// field stays absent (oneof members that are set, such as an empty stringValue, are kept).
const toObjectOptions: protobuf.IConversionOptions = { longs: String, enums: Number, bytes: String, json: true };

/** Base64 (protobufjs's bytes form) → lowercase hex, the OTLP/JSON form of ids. */
export function base64ToHex(value: unknown): string {
  return typeof value === 'string' ? Buffer.from(value, 'base64').toString('hex') : '';
}

type Json = Record<string, unknown>;
const records = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);

/** Ids are bytes in protobuf and hex in OTLP/JSON: rewrite each in place. */
function hexIds(item: Json, keys: readonly string[]): void {
  for (const key of keys) if (key in item) item[key] = base64ToHex(item[key]);
}

/** An ExportTraceServiceRequest as OTLP/JSON (`{ resourceSpans }`). Throws on a malformed payload. */
export function decodeTraceRequest(bytes: Uint8Array): Json {
  const value = traceRequest.toObject(traceRequest.decode(bytes), toObjectOptions);
  for (const rs of records(value.resourceSpans)) {
    for (const ss of records(rs.scopeSpans)) {
      for (const span of records(ss.spans)) {
        hexIds(span, ['traceId', 'spanId', 'parentSpanId']);
        for (const link of records(span.links)) hexIds(link, ['traceId', 'spanId']);
      }
    }
  }
  return { resourceSpans: value.resourceSpans ?? [] };
}

/** An ExportLogsServiceRequest as OTLP/JSON (`{ resourceLogs }`). Throws on a malformed payload. */
export function decodeLogsRequest(bytes: Uint8Array): Json {
  const value = logsRequest.toObject(logsRequest.decode(bytes), toObjectOptions);
  for (const rl of records(value.resourceLogs)) {
    for (const sl of records(rl.scopeLogs)) for (const record of records(sl.logRecords)) hexIds(record, ['traceId', 'spanId']);
  }
  return { resourceLogs: value.resourceLogs ?? [] };
}

/** What a partial success reports: how many items were rejected and why. */
export interface PartialSuccess {
  rejected: number;
  message: string;
}

/** ExportTraceServiceResponse / ExportLogsServiceResponse bytes, with partial_success when something was rejected. */
export function encodeExportResponse(signal: 'traces' | 'logs', partial: PartialSuccess | null): Uint8Array {
  const message = signal === 'traces' ? traceResponse : logsResponse;
  const countKey = signal === 'traces' ? 'rejectedSpans' : 'rejectedLogRecords';
  const body = partial ? { partialSuccess: { [countKey]: partial.rejected, errorMessage: partial.message } } : {};
  return message.encode(message.fromObject(body)).finish();
}

/** A google.rpc.Status, the body of an error response. */
export function encodeStatus(code: number, message: string): Uint8Array {
  return rpcStatus.encode(rpcStatus.fromObject({ code, message })).finish();
}

/** A google.rpc.Status read back (for tests and the bench, which check what the collector answered). */
export function decodeStatus(bytes: Uint8Array): { code: number; message: string } {
  const value = rpcStatus.toObject(rpcStatus.decode(bytes), { defaults: true });
  return { code: Number(value.code), message: String(value.message) };
}

/** An Export*ServiceResponse read back: the partial success, or null when there was none. */
export function decodeExportResponse(signal: 'traces' | 'logs', bytes: Uint8Array): PartialSuccess | null {
  const message = signal === 'traces' ? traceResponse : logsResponse;
  const value = message.toObject(message.decode(bytes), { longs: Number }) as { partialSuccess?: Json };
  if (!value.partialSuccess) return null;
  const rejected = Number(value.partialSuccess.rejectedSpans ?? value.partialSuccess.rejectedLogRecords ?? 0);
  return { rejected, message: String(value.partialSuccess.errorMessage ?? '') };
}
