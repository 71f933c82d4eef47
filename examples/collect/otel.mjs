// OpenTelemetry for an application that calls OpenAI through the official `openai` client,
// sending its traces to `seamscope collect` (or any OTLP/HTTP receiver). Load it before the app:
//
//   OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318 node --import ./otel.mjs your-app.js
//
// Packages (all from the OpenTelemetry project):
//   npm install @opentelemetry/api @opentelemetry/instrumentation @opentelemetry/instrumentation-openai \
//     @opentelemetry/sdk-trace @opentelemetry/sdk-logs @opentelemetry/exporter-trace-otlp-http \
//     @opentelemetry/exporter-logs-otlp-http
//
// Seamscope's e2e (e2e/collector.spec.ts) runs an application with this very file against the
// collector, so what is written here is what is tested.
import { register } from 'node:module';
import { logs, trace } from '@opentelemetry/api';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { OpenAIInstrumentation } from '@opentelemetry/instrumentation-openai';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';

// An ESM app (`import OpenAI from 'openai'`) is patched through this loader hook; a CommonJS app
// (`require('openai')`) needs none. Registered before the app's own imports run.
register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);

// The spans: where the call went, the model, the tokens, the finish reason. The exporter reads
// OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) and posts OTLP/JSON to
// <endpoint>/v1/traces.
const tracerProvider = new TracerProvider({
  spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter() })],
});

// The messages: instrumentation-openai (0.22) sends the prompt and the reply as log records tied
// to the call's span, not as span attributes, so without a logger provider a trace arrives with
// no content. The exporter reads OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_LOGS_ENDPOINT)
// and posts OTLP/JSON to <endpoint>/v1/logs.
const loggerProvider = new LoggerProvider({
  processors: [new BatchLogRecordProcessor({ exporter: new OTLPLogExporter() })],
});

// Also the global providers, so the app's own `trace.getTracer(...)` spans go the same way.
// (For those to parent the OpenAI spans, add a context manager, e.g. AsyncLocalStorageContextManager
// from @opentelemetry/context-async-hooks; the OpenAI spans alone need none.)
trace.setGlobalTracerProvider(tracerProvider);
logs.setGlobalLoggerProvider(loggerProvider);

registerInstrumentations({
  tracerProvider,
  loggerProvider,
  instrumentations: [
    // Message content is off by default (it may hold personal data); Seamscope replays what was
    // sent, so it needs it. OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true does the same.
    new OpenAIInstrumentation({ captureMessageContent: true }),
  ],
});

// The batch processors send every few seconds; a short script ends sooner. Before the process
// exits, send what they hold: the log records first, so the messages are at the collector when
// the span that ends the trace arrives (it waits a second for late ones, no longer).
let flushed = false;
async function shutdown() {
  if (flushed) return;
  flushed = true;
  await loggerProvider.shutdown();
  await tracerProvider.shutdown();
}
process.once('beforeExit', () => void shutdown());
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => void shutdown().finally(() => process.kill(process.pid, signal)));
}
