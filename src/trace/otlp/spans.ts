import { attributeRecord, nanosToMs, type OtlpTraceData } from './otlp-json.ts';
import type { SpanEventLike } from './conventions.ts';

/**
 * The spans of a validated OTLP payload, flattened out of resource/scope nesting with their
 * attributes decoded, plus the parent lookups the importer needs. Parent links come from a
 * file, so they may loop: every walk up the tree is bounded.
 */
export interface FlatSpan {
  key: string;
  traceId: string;
  spanId: string;
  parentKey: string | null;
  name: string;
  startMs: number;
  endMs: number;
  attrs: Record<string, unknown>;
  events: (SpanEventLike & { atMs: number })[];
  status: { code: number; message?: string };
  resource: Record<string, unknown>;
  /** Position in the file, the tie-breaker for spans that start together. */
  order: number;
}

const keyOf = (traceId: string, spanId: string) => `${traceId.toLowerCase()}/${spanId.toLowerCase()}`;

export function flattenSpans(data: OtlpTraceData): FlatSpan[] {
  const out: FlatSpan[] = [];
  for (const rs of data.resourceSpans) {
    const resource = attributeRecord(rs.resource?.attributes);
    for (const ss of rs.scopeSpans) {
      for (const s of ss.spans) {
        const startMs = nanosToMs(s.startTimeUnixNano);
        out.push({
          key: keyOf(s.traceId, s.spanId),
          traceId: s.traceId.toLowerCase(),
          spanId: s.spanId.toLowerCase(),
          parentKey: s.parentSpanId ? keyOf(s.traceId, s.parentSpanId) : null,
          name: s.name,
          startMs,
          // A span that ends before it starts (clock skew, hand edits) is treated as instant.
          endMs: Math.max(startMs, nanosToMs(s.endTimeUnixNano)),
          attrs: attributeRecord(s.attributes),
          events: (s.events ?? []).map((e) => ({ name: e.name ?? '', atMs: e.timeUnixNano !== undefined ? nanosToMs(e.timeUnixNano) : startMs, attrs: attributeRecord(e.attributes) })),
          status: { code: s.status?.code ?? 0, ...(s.status?.message ? { message: s.status.message } : {}) },
          resource,
          order: out.length,
        });
      }
    }
  }
  return out;
}

export interface SpanIndex {
  parent(span: FlatSpan): FlatSpan | undefined;
  /** Ancestors nearest first (at most 256); none when the parent links loop. */
  ancestors(span: FlatSpan): FlatSpan[];
}

export function indexSpans(spans: readonly FlatSpan[]): SpanIndex {
  const byKey = new Map<string, FlatSpan>();
  for (const s of spans) if (!byKey.has(s.key)) byKey.set(s.key, s);
  const parent = (s: FlatSpan) => (s.parentKey ? byKey.get(s.parentKey) : undefined);
  return {
    parent,
    ancestors(span) {
      const seen = new Set([span.key]);
      const chain: FlatSpan[] = [];
      for (let p = parent(span); p && chain.length < 256; p = parent(p)) {
        // A loop means the links are corrupt: such a span is treated as having no ancestry at all.
        if (seen.has(p.key)) return [];
        seen.add(p.key);
        chain.push(p);
      }
      return chain;
    },
  };
}

/**
 * The span wrapping an LLM call: its parent when links exist, else (Vercel AI SDK captures
 * that lost their links) the `ai.generateText`-style span with the same function id whose
 * time range contains the `…doGenerate` span. Candidates are bucketed so a large file stays linear.
 */
export function wrapperFinder(spans: readonly FlatSpan[], index: SpanIndex): (span: FlatSpan) => FlatSpan | undefined {
  const buckets = new Map<string, FlatSpan[]>();
  const bucketKey = (op: unknown, fn: unknown) => JSON.stringify([op, fn ?? null]);
  for (const w of spans) {
    if (typeof w.attrs['ai.operationId'] !== 'string') continue;
    const key = bucketKey(w.attrs['ai.operationId'], w.attrs['ai.telemetry.functionId']);
    const list = buckets.get(key) ?? [];
    list.push(w);
    buckets.set(key, list);
  }
  return (span) => {
    const linked = index.parent(span);
    if (linked) return linked;
    const op = span.attrs['ai.operationId'];
    const match = typeof op === 'string' ? /^(.+)\.do(Generate|Stream)$/.exec(op) : null;
    if (!match) return undefined;
    return buckets.get(bucketKey(match[1], span.attrs['ai.telemetry.functionId']))?.find((w) => w.startMs <= span.startMs && w.endMs >= span.endMs);
  };
}

/**
 * A span name → a step id: an identifier (letters, digits, _), at most 60 characters, unique
 * within `taken`. `next` remembers the last suffix per base, so 10,000 spans named alike stay linear.
 */
export function uniqueStepId(name: string, taken: Set<string>, next: Map<string, number> = new Map()): string {
  let base = name.replace(/[^A-Za-z0-9_]+/g, '_').replace(/_+/g, '_').replace(/^_+|_+$/g, '').slice(0, 52) || 'call';
  if (/^[0-9]/.test(base)) base = `_${base}`;
  let id = base;
  for (let n = next.get(base) ?? 2; taken.has(id); n++) {
    id = `${base}_${n}`;
    next.set(base, n + 1);
  }
  taken.add(id);
  return id;
}
