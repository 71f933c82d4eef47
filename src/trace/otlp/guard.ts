import * as z from 'zod';
import { parseStrictJson } from '../../files/strict-json.ts';
import type { OtlpTraceData } from './otlp-json.ts';

/**
 * The gate every imported trace file passes before anything reads it: a size limit checked
 * before a strict JSON read (duplicate keys and overflowing numbers refused), an iterative depth/size/`__proto__` walk (so hostile nesting cannot
 * overflow the stack or reach a prototype), then a structural schema whose messages name the
 * exact place, e.g. `resourceSpans[0].scopeSpans[0].spans[3].traceId must be 32 hex characters`.
 */
export const MAX_TRACE_BYTES = 20 * 1024 * 1024;
const MAX_DEPTH = 64;
const MAX_NODES = 2_000_000;

export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += /^[A-Za-z_][A-Za-z0-9_]*$/.test(String(key)) ? `${out ? '.' : ''}${String(key)}` : `[${JSON.stringify(String(key))}]`;
  }
  return out || 'the file';
}

/** Null when the value is safe to walk; otherwise a plain sentence naming where it is not. */
export function checkShape(root: unknown): string | null {
  const stack: { value: unknown; path: PropertyKey[] }[] = [{ value: root, path: [] }];
  let nodes = 0;
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { value, path } = item;
    if (value === null || typeof value !== 'object') continue;
    if (++nodes > MAX_NODES) return `the file has more than ${MAX_NODES} values`;
    if (path.length > MAX_DEPTH) return `${formatPath(path.slice(0, 6))}… is nested deeper than ${MAX_DEPTH} levels`;
    const isArray = Array.isArray(value);
    for (const key of Object.keys(value)) {
      if (key === '__proto__') return `${formatPath([...path, key])}: the key "__proto__" is not allowed`;
      stack.push({ value: Reflect.get(value, key), path: [...path, isArray ? Number(key) : key] });
    }
  }
  return null;
}

/** JSON text inside an attribute (messages, outputs, schemas): parsed and walked, or undefined. */
export function parseJsonValue(text: unknown): unknown {
  if (typeof text !== 'string' || text.length > MAX_TRACE_BYTES) return undefined;
  const read = parseStrictJson(text, { maxDepth: MAX_DEPTH + 1 });
  return read.ok && checkShape(read.value) === null ? read.value : undefined;
}

const hex = (n: number) => z.string().regex(new RegExp(`^[0-9a-fA-F]{${n}}$`), `must be ${n} hex characters (OTLP/JSON ids are hex, not base64)`);
const nanos = z.union([
  z.string().regex(/^[0-9]{1,20}$/, 'must be a decimal string of nanoseconds'),
  z.number().int().nonnegative(),
], 'must be a decimal string of nanoseconds');

// Recursive by design; checkShape has already bounded the depth before zod walks it.
type AnyValueIn = z.infer<typeof anyValueBase> & { arrayValue?: { values?: AnyValueIn[] }; kvlistValue?: { values?: { key: string; value?: AnyValueIn }[] } };
const anyValueBase = z.object({
  stringValue: z.string().optional(),
  boolValue: z.boolean().optional(),
  intValue: z.union([z.string().regex(/^-?[0-9]{1,20}$/), z.number().int()], 'must be an integer or a decimal string').optional(),
  doubleValue: z.union([z.number(), z.enum(['NaN', 'Infinity', '-Infinity'])], 'must be a number').optional(),
  bytesValue: z.string().optional(),
}).loose();
const anyValue: z.ZodType<AnyValueIn> = anyValueBase.extend({
  arrayValue: z.object({ values: z.array(z.lazy(() => anyValue)).optional() }).loose().optional(),
  kvlistValue: z.object({ values: z.array(z.lazy(() => keyValue)).optional() }).loose().optional(),
});
const keyValue: z.ZodType<{ key: string; value?: AnyValueIn }> = z.object({ key: z.string(), value: anyValue.optional() }).loose();
const attributeList = z.array(keyValue).optional();

// OTLP/JSON asks for integer enums, but protobuf's standard JSON mapping (Python MessageToJson,
// Go protojson) writes the enum names, and real dumps carry them: both are read, as integers.
const SPAN_KINDS = ['SPAN_KIND_UNSPECIFIED', 'SPAN_KIND_INTERNAL', 'SPAN_KIND_SERVER', 'SPAN_KIND_CLIENT', 'SPAN_KIND_PRODUCER', 'SPAN_KIND_CONSUMER'] as const;
const STATUS_CODES = ['STATUS_CODE_UNSET', 'STATUS_CODE_OK', 'STATUS_CODE_ERROR'] as const;
const kindMessage = `must be an integer 0-5 or a span kind name (${SPAN_KINDS.join(', ')})`;
const statusMessage = `must be 0, 1 or 2 or a status code name (${STATUS_CODES.join(', ')})`;
const kind = z.union([
  z.number(kindMessage).int(kindMessage).min(0, kindMessage).max(5, kindMessage),
  z.enum(SPAN_KINDS).transform((name) => SPAN_KINDS.indexOf(name)),
], kindMessage);
const statusCode = z.union([
  z.literal(0), z.literal(1), z.literal(2),
  z.enum(STATUS_CODES).transform((name) => STATUS_CODES.indexOf(name) as 0 | 1 | 2),
], statusMessage);
const span = z.object({
  traceId: hex(32),
  spanId: hex(16),
  parentSpanId: z.union([z.literal(''), hex(16)], 'must be empty or 16 hex characters').optional(),
  name: z.string(),
  kind: kind.optional(),
  startTimeUnixNano: nanos,
  endTimeUnixNano: nanos,
  attributes: attributeList,
  events: z.array(z.object({ timeUnixNano: nanos.optional(), name: z.string().optional(), attributes: attributeList }).loose()).optional(),
  status: z.object({ code: statusCode.optional(), message: z.string().optional() }).loose().optional(),
}).loose();

const tracesData = z.object({
  resourceSpans: z.array(z.object({
    resource: z.object({ attributes: attributeList }).loose().optional(),
    scopeSpans: z.array(z.object({ scope: z.object({ name: z.string().optional() }).loose().optional(), spans: z.array(span).default([]) }).loose()).default([]),
  }).loose(),
  ),
}).loose();

/**
 * One span and one log record as the trace reader accepts them, for `seamscope collect`, which
 * checks each item of a request on its own (a bad span is rejected, the rest of the request kept).
 */
export const otlpSpanSchema = span;
/** A resourceSpans' resource and a scopeSpans' scope, as the trace reader accepts them. */
export const otlpResourceSchema = z.object({ attributes: attributeList }).loose();
export const otlpScopeSchema = z.object({ name: z.string().optional() }).loose();
export const otlpLogRecordSchema = z.object({
  traceId: z.union([z.literal(''), hex(32)], 'must be empty or 32 hex characters').optional(),
  spanId: z.union([z.literal(''), hex(16)], 'must be empty or 16 hex characters').optional(),
  timeUnixNano: nanos.optional(),
  eventName: z.string().optional(),
  body: anyValue.optional(),
  attributes: attributeList,
}).loose();

function issueText(issue: z.core.$ZodIssue): string {
  const where = formatPath(issue.path);
  // zod's own wording starts "Invalid input"; ours (hex ids, enums) is already a plain sentence.
  if (!issue.message.startsWith('Invalid input')) return `${where} ${issue.message}`;
  if (issue.code === 'invalid_type') {
    if (issue.message.endsWith('received undefined')) return `${where} is missing`;
    const article = /^[aeiou]/.test(issue.expected) ? 'an' : 'a';
    return `${where} must be ${article} ${issue.expected}`;
  }
  return `${where} is not valid (${issue.message})`;
}

export type ReadJsonResult = { ok: true; value: unknown } | { ok: false; message: string };

/**
 * Text → a JSON value every trace reader can walk safely: within the size limit, strict
 * (duplicate keys and numbers that overflow to Infinity refused with their path), at most
 * MAX_DEPTH deep, MAX_NODES values and no `__proto__` key. Never throws.
 */
export function readTraceJson(text: string): ReadJsonResult {
  if (typeof text !== 'string') return { ok: false, message: 'the trace must be given as text' };
  if (text.length > MAX_TRACE_BYTES) {
    return { ok: false, message: `the file is ${(text.length / 1048576).toFixed(1)} MB; trace files are limited to ${MAX_TRACE_BYTES / 1048576} MB` };
  }
  // The reader stops at the depth checkShape allows, so hostile nesting costs nothing; the
  // message is the same one checkShape gives.
  const read = parseStrictJson(text, { maxDepth: MAX_DEPTH + 1 });
  if (!read.ok && read.code === 'depth') return { ok: false, message: `${formatPath(read.path.slice(0, 6))}… is nested deeper than ${MAX_DEPTH} levels` };
  if (!read.ok) return { ok: false, message: `the file is not valid JSON: ${formatPath(read.path)}: ${read.message}` };
  const shape = checkShape(read.value);
  if (shape) return { ok: false, message: shape };
  return { ok: true, value: read.value };
}

/** The first few zod issues as one sentence naming each place. */
export function issuesText(prefix: string, issues: readonly z.core.$ZodIssue[]): string {
  const more = issues.length > 5 ? ` (and ${issues.length - 5} more problems)` : '';
  return `${prefix}: ${issues.slice(0, 5).map(issueText).join('; ')}${more}`;
}

export type ReadOtlpResult = { ok: true; data: OtlpTraceData } | { ok: false; message: string };

/** Text → a structurally valid OTLP/JSON payload, or one plain message. Never throws. */
export function readOtlpJson(text: string): ReadOtlpResult {
  const read = readTraceJson(text);
  if (!read.ok) return read;
  const raw = read.value;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw) || !('resourceSpans' in raw)) {
    return { ok: false, message: 'this is not an OTLP/JSON trace: it needs a top-level "resourceSpans" list (export traces as OTLP JSON, not protobuf or a vendor format)' };
  }
  const parsed = tracesData.safeParse(raw);
  if (!parsed.success) return { ok: false, message: issuesText('the trace is malformed', parsed.error.issues) };
  return { ok: true, data: parsed.data as unknown as OtlpTraceData };
}
