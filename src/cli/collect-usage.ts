/** `collect`'s usage text, apart from the command so the help loads nothing of it. */
export const collectUsage = `  seamscope collect [--port 4318] [--host 127.0.0.1] [--dir .runs/collected] [--app-origin http://127.0.0.1:5173]…
       An OTLP/HTTP receiver: point an OpenTelemetry exporter at http://127.0.0.1:4318 (POST /v1/traces and /v1/logs,
       protobuf or JSON, gzip or not). Each finished trace (its root span ended, or 30 s without a span) is imported
       and written to --dir as a .run.json, with one line of its boundary verdicts. Keys in span attributes are scrubbed first.
       The app reads the runs live: it prints a token at start; in the app, Connect collector (under Runs) with the
       address and that token. Only pages from --app-origin may read (repeat it for several; the default is the dev
       server and vite preview: http://127.0.0.1:5173, http://localhost:5173, http://127.0.0.1:4173, http://localhost:4173).`;
