import { createRequire } from 'node:module';
import { metrics } from '@opentelemetry/api';
import { OpenAIInstrumentation } from '@opentelemetry/instrumentation-openai';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { OpenAIModule } from './otel-capture.ts';
import { otlpLogExporter, otlpTraceExporter, type ExporterSetup } from './otlp-exporters.ts';

const require = createRequire(import.meta.url);

export interface InstrumentedOpenAI {
  /** openai 6.49 (`openai-v6`: instrumentation-openai 0.22 supports < 7), patched. */
  openai: OpenAIModule;
  /** Sends what the batch processors hold, log records or spans first. */
  flush(first: 'logs' | 'spans'): Promise<void>;
}

/**
 * An OpenAI application set up as examples/collect/otel.mjs sets one up for `seamscope collect`, in this process: the official
 * client instrumented by @opentelemetry/instrumentation-openai with message content captured
 * (0.22 puts it in log records), spans and log records sent by OpenTelemetry's OTLP/HTTP
 * exporters. The client is patched through the instrumentation's own entry point, as
 * otel-capture.ts does, and unpatched when `use` ends.
 */
export async function withInstrumentedOpenAI<T>(setup: ExporterSetup, use: (app: InstrumentedOpenAI) => Promise<T>): Promise<T> {
  const app = instrumentOpenAI(setup);
  const flush = async (first: 'logs' | 'spans') => {
    const [a, b] = first === 'logs' ? [app.loggerProvider, app.tracerProvider] : [app.tracerProvider, app.loggerProvider];
    await a.forceFlush();
    await b.forceFlush();
  };
  try {
    return await use({ openai: app.openai, flush });
  } finally {
    await app.stop();
  }
}

/**
 * The instrumented client with its two providers in the caller's hands (so spans and log
 * records can be sent apart); `stop` unpatches the client and shuts both providers down.
 */
export function instrumentOpenAI(setup: ExporterSetup) {
  const openai = require('openai-v6') as OpenAIModule;
  const tracerProvider = new TracerProvider({ spanProcessors: [new BatchSpanProcessor({ exporter: otlpTraceExporter(setup) })] });
  const loggerProvider = new LoggerProvider({ processors: [new BatchLogRecordProcessor({ exporter: otlpLogExporter(setup) })] });
  const instrumentation = new OpenAIInstrumentation({ captureMessageContent: true });
  instrumentation.setTracerProvider(tracerProvider);
  instrumentation.setLoggerProvider(loggerProvider);
  // 0.22.0 resets its metric instruments in its own class fields; a meter provider recreates them (see otel-capture.test.ts).
  instrumentation.setMeterProvider(metrics.getMeterProvider());
  const definitions = instrumentation.getModuleDefinitions();
  for (const d of definitions) d.patch?.(openai, openai.VERSION);
  return {
    openai, tracerProvider, loggerProvider,
    async stop() {
      for (const d of definitions) d.unpatch?.(openai, openai.VERSION);
      instrumentation.disable();
      await Promise.all([tracerProvider.shutdown(), loggerProvider.shutdown()]);
    },
  };
}
