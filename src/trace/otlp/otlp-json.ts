import { prototypeFreeRecord } from '../../files/json-value.ts';
/**
 * OTLP/JSON trace payload types (what `POST /v1/traces` carries) and the AnyValue codec.
 * OTLP/JSON rules: lowerCamelCase keys, hex ids, integer enums, int64 as decimal strings.
 * Kept free of Node APIs so export and import run in the browser too.
 */
export interface OtlpAnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  arrayValue?: { values?: OtlpAnyValue[] };
  kvlistValue?: { values?: OtlpKeyValue[] };
  bytesValue?: string;
}

export interface OtlpKeyValue {
  key: string;
  value?: OtlpAnyValue;
}

export interface OtlpEvent {
  timeUnixNano: string;
  name: string;
  attributes?: OtlpKeyValue[];
}

export interface OtlpStatus {
  code?: 0 | 1 | 2;
  message?: string;
}

export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind?: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes?: OtlpKeyValue[];
  events?: OtlpEvent[];
  status?: OtlpStatus;
}

export interface OtlpTraceData {
  resourceSpans: {
    resource?: { attributes?: OtlpKeyValue[] };
    scopeSpans: { scope?: { name?: string; version?: string }; spans: OtlpSpan[] }[];
  }[];
}

export const SPAN_KIND = { internal: 1, server: 2, client: 3 } as const;
export const STATUS = { unset: 0, ok: 1, error: 2 } as const;

/** Plain attribute values we write: strings, finite numbers, booleans and arrays of them. */
export type AttrValue = string | number | boolean | string[] | undefined | null;

/**
 * Encodes a plain value. Integers become `intValue` decimal strings (int64 in proto3 JSON),
 * other numbers `doubleValue`. `asDouble` forces a double for keys typed double (temperature),
 * because `0` would otherwise be encoded as an int.
 */
export function toAnyValue(value: Exclude<AttrValue, undefined | null>, asDouble = false): OtlpAnyValue {
  if (typeof value === 'string') return { stringValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  if (typeof value === 'number') return Number.isInteger(value) && !asDouble ? { intValue: String(value) } : { doubleValue: value };
  return { arrayValue: { values: value.map((v) => ({ stringValue: v })) } };
}

/** Builds an attribute list, dropping absent values and non-finite numbers (JSON cannot hold them). */
export function attributes(entries: Record<string, AttrValue>, doubles: ReadonlySet<string> = new Set()): OtlpKeyValue[] {
  const out: OtlpKeyValue[] = [];
  for (const [key, value] of Object.entries(entries)) {
    if (value === undefined || value === null) continue;
    if (typeof value === 'number' && !Number.isFinite(value)) continue;
    out.push({ key, value: toAnyValue(value, doubles.has(key)) });
  }
  return out;
}

/**
 * Decodes an AnyValue to plain JS. Int64 strings become numbers when they are safe integers,
 * otherwise stay strings (a token count never exceeds 2^53; an id might).
 */
export function fromAnyValue(value: OtlpAnyValue | undefined): unknown {
  if (!value) return undefined;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) {
    const n = Number(value.intValue);
    return Number.isSafeInteger(n) ? n : String(value.intValue);
  }
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(fromAnyValue);
  if (value.kvlistValue !== undefined) return attributeRecord(value.kvlistValue.values);
  if (value.bytesValue !== undefined) return value.bytesValue;
  return undefined;
}

/**
 * A key → value record from an attribute list. The record has no prototype, so a key such
 * as `constructor` is just data; the first occurrence of a repeated key wins (OTLP forbids
 * repeats, but a hostile file may have them).
 */
export function attributeRecord(list: readonly OtlpKeyValue[] | undefined): Record<string, unknown> {
  const out = prototypeFreeRecord();
  for (const kv of list ?? []) {
    if (!(kv.key in out)) out[kv.key] = fromAnyValue(kv.value);
  }
  return out;
}

/** Milliseconds (possibly fractional) → a decimal nanosecond string, exact to the microsecond. */
export function msToNanos(ms: number): string {
  const safe = Number.isFinite(ms) && ms > 0 ? ms : 0;
  return (BigInt(Math.round(safe * 1000)) * 1000n).toString();
}

/** A nanosecond timestamp (decimal string or number) → milliseconds, keeping sub-ms precision. */
export function nanosToMs(ns: string | number): number {
  const big = typeof ns === 'string' ? BigInt(ns) : BigInt(Math.trunc(ns));
  return Number(big / 1000n) / 1000;
}
