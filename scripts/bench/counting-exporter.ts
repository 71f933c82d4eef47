import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';

/**
 * A span exporter that hands every export to the real one (OpenTelemetry's OTLP/HTTP exporter)
 * and counts what the batch processor gave it and how each export ended. A span the processor
 * dropped because its queue was full never reaches an exporter, and the SDK says so only in a
 * debug log: spans ended minus spans handed over (once every processor is flushed) is that count.
 */
export interface ExportCounts {
  /** Spans the batch processor handed to the exporter. */
  handed: number;
  /** Spans in exports that succeeded (the collector answered 200, after any 429 retries). */
  succeeded: number;
  /** Spans in exports that failed (retries spent, timed out, refused), by the error's message. */
  failed: Map<string, number>;
  /** Each export's time from hand-over to its result, in ms (retries included). */
  latenciesMs: number[];
}

export function countingExporter(inner: SpanExporter): { exporter: SpanExporter; counts: ExportCounts } {
  const counts: ExportCounts = { handed: 0, succeeded: 0, failed: new Map(), latenciesMs: [] };
  const exporter: SpanExporter = {
    export(spans: ReadableSpan[], done: (result: ExportResult) => void) {
      counts.handed += spans.length;
      const started = performance.now();
      inner.export(spans, (result) => {
        counts.latenciesMs.push(performance.now() - started);
        if (result.code === ExportResultCode.SUCCESS) counts.succeeded += spans.length;
        else {
          const why = (result.error?.message ?? 'failed').slice(0, 80);
          counts.failed.set(why, (counts.failed.get(why) ?? 0) + spans.length);
        }
        done(result);
      });
    },
    shutdown: () => inner.shutdown(),
    forceFlush: () => inner.forceFlush?.() ?? Promise.resolve(),
  };
  return { exporter, counts };
}
