import { createRequire } from 'node:module';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type OpenAIClient from 'openai-v6';
import { createMockModelServer, type MockReply } from './mock-server.ts';
import { startTestCollector } from './otlp-collector.ts';

/**
 * Real OTLP captures for tests: an OpenTelemetry instrumentation nobody on the team wrote wraps
 * the official `openai` client, the client calls the mock model server, and the OTLP/JSON HTTP
 * exporter (@opentelemetry/exporter-trace-otlp-http, SDK 3.x) posts the spans to a collector
 * on 127.0.0.1. What comes back is each request body exactly as the exporter sent it.
 *
 * The instrumentations on npm support `openai` >=4 <7, so the client is openai 6.49 (the
 * `openai-v6` alias; the project's own `openai` devDependency is 7.x). Require hooks match the
 * package name `openai`, which the alias is not, so `instrument` applies the instrumentation
 * to the loaded module through its own patch entry point; its code runs unchanged.
 */
export type OpenAIModule = { OpenAI: typeof OpenAIClient; VERSION: string };

export interface CaptureSetup {
  /** Wires the instrumentation to the provider and patches the module; returns the undo. */
  instrument(provider: TracerProvider, openai: OpenAIModule): () => void;
  replies: MockReply[];
  calls(client: OpenAIClient): Promise<void>;
}

const require = createRequire(import.meta.url);

export async function captureOtlp(setup: CaptureSetup): Promise<{ contentType: string; body: string }[]> {
  const openai = require('openai-v6') as OpenAIModule;
  const [mock, collector] = await Promise.all([createMockModelServer(), startTestCollector()]);
  const provider = new TracerProvider({ spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: collector.url }) })] });
  const undo = setup.instrument(provider, openai);
  try {
    mock.enqueue(...setup.replies);
    await setup.calls(new openai.OpenAI({ baseURL: `${mock.url}/v1`, apiKey: 'test-key', maxRetries: 0 }));
    // One flush: the batch processor sends every span in one request.
    await provider.forceFlush();
    return [...collector.requests];
  } finally {
    undo();
    await provider.shutdown();
    await Promise.all([mock.close(), collector.close()]);
  }
}
