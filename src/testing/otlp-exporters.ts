import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { CompressionAlgorithm, OTLPExporterBase } from '@opentelemetry/otlp-exporter-base';
import { convertLegacyHttpOptions, createOtlpHttpExportDelegate } from '@opentelemetry/otlp-exporter-base/node-http';
import { JsonLogsSerializer, LogsExporterMetricsHelper, ProtobufLogsSerializer, ProtobufTraceSerializer, TraceExporterMetricsHelper } from '@opentelemetry/otlp-transformer';
import type { LogRecordExporter, ReadableLogRecord } from '@opentelemetry/sdk-logs';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';

/**
 * OpenTelemetry's own OTLP/HTTP exporters, in both encodings, for tests and the bench that send
 * to `seamscope collect`. The JSON trace exporter is @opentelemetry/exporter-trace-otlp-http
 * as is; the protobuf and log exporters are put together from the same parts, the way
 * @opentelemetry/exporter-trace-otlp-proto and exporter-logs-otlp-* build theirs (not installed
 * here): an OTLPExporterBase around the Node HTTP export delegate and the official serializer.
 */
export type ExportEncoding = 'protobuf' | 'json';

export interface ExporterSetup {
  /** The collector's base URL, e.g. http://127.0.0.1:4318. */
  url: string;
  encoding: ExportEncoding;
  gzip?: boolean;
  /** How long one export may take, retries on 429 included (the exporter's default is 10 s). */
  timeoutMillis?: number;
}

const contentType = (encoding: ExportEncoding) => ({ 'Content-Type': encoding === 'protobuf' ? 'application/x-protobuf' : 'application/json' });

function config(setup: ExporterSetup, path: string) {
  return {
    url: `${setup.url}/${path}`,
    compression: setup.gzip ? CompressionAlgorithm.GZIP : CompressionAlgorithm.NONE,
    ...(setup.timeoutMillis ? { timeoutMillis: setup.timeoutMillis } : {}),
  };
}

export function otlpTraceExporter(setup: ExporterSetup): SpanExporter {
  if (setup.encoding === 'json') return new OTLPTraceExporter(config(setup, 'v1/traces'));
  return new OTLPExporterBase<ReadableSpan[]>(createOtlpHttpExportDelegate(
    convertLegacyHttpOptions(config(setup, 'v1/traces'), 'TRACES', 'v1/traces', contentType('protobuf')),
    ProtobufTraceSerializer, 'otlp_http_span_exporter', TraceExporterMetricsHelper, undefined,
  ));
}

export function otlpLogExporter(setup: ExporterSetup): LogRecordExporter {
  return new OTLPExporterBase<ReadableLogRecord[]>(createOtlpHttpExportDelegate(
    convertLegacyHttpOptions(config(setup, 'v1/logs'), 'LOGS', 'v1/logs', contentType(setup.encoding)),
    setup.encoding === 'protobuf' ? ProtobufLogsSerializer : JsonLogsSerializer, 'otlp_http_log_exporter', LogsExporterMetricsHelper, undefined,
  ));
}
