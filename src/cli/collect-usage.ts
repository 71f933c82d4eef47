/** `collect`'s usage text, apart from the command so the help loads nothing of it. */
export const collectUsage = `  seamscope collect [--port 4318] [--host 127.0.0.1] [--dir .runs/collected]
       An OTLP/HTTP receiver: point an OpenTelemetry exporter at http://127.0.0.1:4318 (POST /v1/traces and /v1/logs,
       protobuf or JSON, gzip or not). Each finished trace (its root span ended, or 30 s without a span) is imported
       and written to --dir as a .run.json, with one line of its boundary verdicts. Keys in span attributes are scrubbed first.`;
