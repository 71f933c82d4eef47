import type { OtlpEvent, OtlpSpan, OtlpTraceData } from '../trace/otlp/otlp-json.ts';

/**
 * Log records that arrive after their trace was written (instrumentation-openai sends message
 * content as log records, often in a batch of their own, seconds after the spans). They make a
 * late part of the trace as late spans do (assembler.ts), but a record is nothing without its
 * span, which is in a part already written. So the writer thread remembers the OTLP/JSON text of
 * the parts it wrote (bounded in characters, the oldest trace forgotten first), and a late part's
 * records are joined to copies of their spans from it: the late run shows the call with every
 * message it has had so far.
 */

/** A late part's records whose spans are in an earlier part: span id → the records as span events, in arrival order. */
export type EarlierSpanLogs = [spanId: string, events: OtlpEvent[]][];

/** What a writer thread remembers of the parts it wrote, by trace id. */
export class WrittenParts {
  private readonly texts = new Map<string, string[]>();
  private chars = 0;

  /** `maxChars`: how many characters of OTLP/JSON text are held at most, over every trace. */
  constructor(private readonly maxChars: number) {}

  get heldChars(): number {
    return this.chars;
  }

  remember(traceId: string, otlp: string): void {
    if (otlp.length === 0 || otlp.length > this.maxChars) return;
    const held = this.texts.get(traceId);
    if (held) held.push(otlp);
    else this.texts.set(traceId, [otlp]);
    this.chars += otlp.length;
    // A Map iterates in insertion order: the trace first written is forgotten first.
    for (const [id, texts] of this.texts) {
      if (this.chars <= this.maxChars) break;
      this.texts.delete(id);
      for (const t of texts) this.chars -= t.length;
    }
  }

  /** The texts of a trace's written parts, first part first; empty when none is remembered. */
  partsOf(traceId: string): readonly string[] {
    return this.texts.get(traceId) ?? [];
  }
}

/**
 * The late part's payload with copies of the earlier spans its records belong to, each with the
 * records as events after its own; `joined` counts the records that found their span. A span
 * is taken from the latest part that holds it, so a record joins it once.
 */
export function joinEarlierLogs(otlp: string, earlier: EarlierSpanLogs, parts: readonly string[]): { data: OtlpTraceData; joined: number } {
  const data: OtlpTraceData = otlp ? (JSON.parse(otlp) as OtlpTraceData) : { resourceSpans: [] };
  const wanted = new Map(earlier);
  let joined = 0;
  for (let i = parts.length - 1; i >= 0 && wanted.size > 0; i--) {
    const part = JSON.parse(parts[i] as string) as OtlpTraceData;
    for (const resource of part.resourceSpans) {
      for (const scope of resource.scopeSpans) {
        const spans: OtlpSpan[] = [];
        for (const span of scope.spans) {
          const events = wanted.get(span.spanId);
          if (!events) continue;
          wanted.delete(span.spanId);
          joined += events.length;
          spans.push({ ...span, events: [...(span.events ?? []), ...events] });
        }
        // Under the resource and scope it was written with.
        if (spans.length) data.resourceSpans.push({ ...(resource.resource ? { resource: resource.resource } : {}), scopeSpans: [{ ...(scope.scope ? { scope: scope.scope } : {}), spans }] });
      }
    }
  }
  return { data, joined };
}
