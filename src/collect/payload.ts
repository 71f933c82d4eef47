import { readTraceJson, issuesText, otlpLogRecordSchema, otlpResourceSchema, otlpScopeSchema, otlpSpanSchema, formatPath } from '../trace/otlp/guard.ts';
import type { OtlpKeyValue, OtlpSpan, OtlpAnyValue } from '../trace/otlp/otlp-json.ts';
import { decodeLogsRequest, decodeTraceRequest } from './otlp-proto.ts';

/**
 * An export request's body (protobuf or JSON, already gunzipped) → the spans or log records in
 * it, each checked on its own: a malformed request is refused whole (the caller answers 400),
 * a bad item is rejected and counted (the caller answers 200 with partial_success). Nothing
 * here keeps state or writes anything.
 */
export type Encoding = 'protobuf' | 'json';

/** The limits a request's values are held to; a value past them refuses the whole request. */
export interface ValueLimits {
  /** The longest string (attribute value, name, base64 bytes) in characters. */
  maxValueChars: number;
  /** How deep the OTLP/JSON form may nest (the trace reader's limit, so what is accepted also imports). */
  maxDepth: number;
  /** How many objects and arrays one request may hold. */
  maxNodes: number;
}

/** A span with what it is grouped and joined by, and the resource and scope it came with. */
export interface IncomingSpan {
  traceId: string;
  spanId: string;
  isRoot: boolean;
  resource: { attributes?: OtlpKeyValue[] } | undefined;
  scope: { name?: string; version?: string } | undefined;
  span: OtlpSpan;
  /** The span's share of the request body, what the collector counts against its memory bound. */
  bytes: number;
}

/** A log record that belongs to a span (a record with no span has nothing to join and is not kept). */
export interface IncomingLog {
  traceId: string;
  spanId: string;
  timeUnixNano: string;
  eventName: string;
  body: OtlpAnyValue | undefined;
  attributes: OtlpKeyValue[];
  bytes: number;
}

export type ReadResult<T> =
  | { ok: true; items: T[]; rejected: number; reasons: string[] }
  | { ok: false; message: string };

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true });
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);

type Json = Record<string, unknown>;
const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Null when every value is within the limits; otherwise a sentence naming the first place that
 * is not. Iterative, so hostile nesting cannot overflow the stack.
 */
export function valueProblem(root: unknown, limits: ValueLimits): string | null {
  // Each entry links to its parent, so a path is built only for the value that fails (one
  // array per value would be most of the walk's cost on a large request).
  interface Entry { value: unknown; key: PropertyKey | null; parent: Entry | null; depth: number }
  const pathOf = (entry: Entry): PropertyKey[] => {
    const path: PropertyKey[] = [];
    for (let e: Entry | null = entry; e && e.key !== null; e = e.parent) path.unshift(e.key);
    return path;
  };
  const stack: Entry[] = [{ value: root, key: null, parent: null, depth: 0 }];
  let nodes = 0;
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const { value } = entry;
    if (typeof value === 'string') {
      if (value.length > limits.maxValueChars) {
        return `${formatPath(pathOf(entry))} is ${(value.length / 1048576).toFixed(1)} M characters long; one value may be at most ${(limits.maxValueChars / 1048576).toFixed(1)} M`;
      }
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (++nodes > limits.maxNodes) return `the request holds more than ${limits.maxNodes} values`;
    if (entry.depth > limits.maxDepth) return `${formatPath(pathOf(entry).slice(0, 8))}… is nested deeper than ${limits.maxDepth} levels`;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) stack.push({ value: value[i], key: i, parent: entry, depth: entry.depth + 1 });
    } else {
      for (const key of Object.keys(value)) stack.push({ value: Reflect.get(value, key), key, parent: entry, depth: entry.depth + 1 });
    }
  }
  return null;
}

/** The body as an OTLP/JSON value: protobuf decoded by protobufjs, JSON read strictly. Throws a plain message. */
function decodeBody(body: Uint8Array, encoding: Encoding, signal: 'traces' | 'logs'): unknown {
  if (encoding === 'protobuf') {
    try {
      return signal === 'traces' ? decodeTraceRequest(body) : decodeLogsRequest(body);
    } catch (error) {
      throw new Error(`the body is not a valid ${signal === 'traces' ? 'ExportTraceServiceRequest' : 'ExportLogsServiceRequest'} (${(error as Error).message})`);
    }
  }
  let text: string;
  try {
    text = fatalUtf8.decode(body);
  } catch {
    throw new Error('the body is not valid UTF-8');
  }
  const read = readTraceJson(text);
  if (!read.ok) throw new Error(read.message.replace(/^the file/, 'the body'));
  return read.value;
}

/** Ids of all zeros are invalid in OTLP: such a span cannot be grouped or joined. */
function spanIdsProblem(span: OtlpSpan): string | null {
  if (span.traceId === ZERO_TRACE) return 'its traceId is all zeros';
  if (span.spanId === ZERO_SPAN) return 'its spanId is all zeros';
  return null;
}

function readValue(body: Uint8Array, encoding: Encoding, signal: 'traces' | 'logs', limits: ValueLimits, top: string): { ok: true; value: Json } | { ok: false; message: string } {
  let value: unknown;
  try {
    value = decodeBody(body, encoding, signal);
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
  if (!isObject(value)) return { ok: false, message: `the body must be an object with a "${top}" list` };
  const problem = valueProblem(value, limits);
  if (problem) return { ok: false, message: problem };
  if (value[top] !== undefined && !Array.isArray(value[top])) return { ok: false, message: `${top} must be a list` };
  return { ok: true, value };
}

type SpanCheck = { ok: true; span: OtlpSpan } | { ok: false; problem: string };

/** A span of a JSON body, held to the trace reader's schema (ids, times, kinds, every attribute value). */
function checkJsonSpan(raw: unknown, where: string): SpanCheck {
  const parsed = otlpSpanSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, problem: issuesText(where, parsed.error.issues) };
  const span = parsed.data as unknown as OtlpSpan;
  const ids = spanIdsProblem(span);
  return ids ? { ok: false, problem: `${where}: ${ids}` } : { ok: true, span };
}

const HEX_TRACE_ID = /^[0-9a-f]{32}$/;
const HEX_SPAN_ID = /^[0-9a-f]{16}$/;
const isNanos = (value: unknown) => typeof value === 'string' && /^[0-9]{1,20}$/.test(value);
const inRange = (value: unknown, max: number) => value === undefined || (Number.isInteger(value) && (value as number) >= 0 && (value as number) <= max);

/**
 * A span of a protobuf body, decoded by protobufjs: every field already has its proto type (the
 * attribute values included), so only what the proto allows and the trace reader does not is
 * checked, the same rules as the schema and without its cost (it was most of a request's time
 * under load): ids of the wrong length, a name or times that are absent, an enum value past
 * the known ones.
 */
function checkDecodedSpan(raw: Json, where: string): SpanCheck {
  const problem = (text: string): SpanCheck => ({ ok: false, problem: `${where}: ${text}` });
  if (!HEX_TRACE_ID.test(String(raw.traceId ?? ''))) return problem('traceId must be 16 bytes');
  if (!HEX_SPAN_ID.test(String(raw.spanId ?? ''))) return problem('spanId must be 8 bytes');
  if (raw.parentSpanId !== undefined && raw.parentSpanId !== '' && !HEX_SPAN_ID.test(String(raw.parentSpanId))) return problem('parentSpanId must be empty or 8 bytes');
  if (typeof raw.name !== 'string') return problem('name is missing');
  if (!isNanos(raw.startTimeUnixNano)) return problem('startTimeUnixNano is missing');
  if (!isNanos(raw.endTimeUnixNano)) return problem('endTimeUnixNano is missing');
  if (!inRange(raw.kind, 5)) return problem('kind must be an integer 0-5');
  if (isObject(raw.status) && !inRange(raw.status.code, 2)) return problem('status.code must be 0, 1 or 2');
  const span = raw as unknown as OtlpSpan;
  const ids = spanIdsProblem(span);
  return ids ? problem(ids) : { ok: true, span };
}

/** The spans of an ExportTraceServiceRequest body, each checked as the trace reader checks it. */
export function readTraceRequest(body: Uint8Array, encoding: Encoding, limits: ValueLimits): ReadResult<IncomingSpan> {
  const read = readValue(body, encoding, 'traces', limits, 'resourceSpans');
  if (!read.ok) return read;
  const checkSpan = encoding === 'protobuf' ? checkDecodedSpan : checkJsonSpan;
  const items: IncomingSpan[] = [];
  const reasons: string[] = [];
  let rejected = 0;
  let total = 0;
  const reject = (count: number, reason: string) => {
    rejected += count;
    if (reasons.length < 3) reasons.push(reason);
  };
  list(read.value.resourceSpans).forEach((rs, r) => {
    // A resource or scope the reader would refuse: the spans under it are rejected with it.
    const resourceOk = encoding === 'protobuf' || rs.resource === undefined || otlpResourceSchema.safeParse(rs.resource).success;
    const resource = isObject(rs.resource) ? (rs.resource as IncomingSpan['resource']) : undefined;
    list(rs.scopeSpans).forEach((ss, s) => {
      const where = `resourceSpans[${r}].scopeSpans[${s}]`;
      const spans = list(ss.spans);
      total += spans.length;
      if (!resourceOk) return reject(spans.length, `resourceSpans[${r}].resource is not valid (its attributes must be a list of key-value pairs)`);
      if (encoding === 'json' && ss.scope !== undefined && !otlpScopeSchema.safeParse(ss.scope).success) return reject(spans.length, `${where}.scope is not valid (its name must be text)`);
      const scope = isObject(ss.scope) ? (ss.scope as IncomingSpan['scope']) : undefined;
      spans.forEach((raw, i) => {
        const checked = checkSpan(raw, `${where}.spans[${i}]`);
        if (!checked.ok) return reject(1, checked.problem);
        const { span } = checked;
        items.push({
          traceId: span.traceId.toLowerCase(), spanId: span.spanId.toLowerCase(), isRoot: !span.parentSpanId,
          resource, scope, span, bytes: 0,
        });
      });
    });
  });
  // Each span's share of the body: what the memory bound counts (the decoded form is larger, in proportion).
  const share = total > 0 ? Math.ceil(body.length / total) : 0;
  for (const item of items) item.bytes = share;
  return { ok: true, items, rejected, reasons };
}

/** The log records of an ExportLogsServiceRequest body that name a span; records with no span are counted apart. */
export function readLogsRequest(body: Uint8Array, encoding: Encoding, limits: ValueLimits): ReadResult<IncomingLog> & { unjoinable?: number } {
  const read = readValue(body, encoding, 'logs', limits, 'resourceLogs');
  if (!read.ok) return read;
  const items: IncomingLog[] = [];
  const reasons: string[] = [];
  let rejected = 0;
  let total = 0;
  let unjoinable = 0;
  list(read.value.resourceLogs).forEach((rl, r) => {
    list(rl.scopeLogs).forEach((sl, s) => {
      list(sl.logRecords).forEach((raw, i) => {
        total++;
        const parsed = otlpLogRecordSchema.safeParse(raw);
        if (!parsed.success) {
          rejected++;
          if (reasons.length < 3) reasons.push(issuesText(`resourceLogs[${r}].scopeLogs[${s}].logRecords[${i}]`, parsed.error.issues));
          return;
        }
        const record = parsed.data;
        const traceId = (record.traceId ?? '').toLowerCase();
        const spanId = (record.spanId ?? '').toLowerCase();
        if (!traceId || !spanId || traceId === ZERO_TRACE || spanId === ZERO_SPAN) {
          unjoinable++;
          return;
        }
        const attributes = (record.attributes ?? []) as OtlpKeyValue[];
        const named = attributes.find((kv) => kv.key === 'event.name')?.value?.stringValue;
        items.push({
          traceId, spanId, timeUnixNano: String(record.timeUnixNano ?? '0'), eventName: record.eventName || named || '',
          body: record.body as OtlpAnyValue | undefined, attributes, bytes: 0,
        });
      });
    });
  });
  const share = total > 0 ? Math.ceil(body.length / total) : 0;
  for (const item of items) item.bytes = share;
  return { ok: true, items, rejected, reasons, unjoinable };
}
