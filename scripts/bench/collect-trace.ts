import { context, SpanKind, trace as traceApi, type Tracer } from '@opentelemetry/api';

/**
 * One agent trace as the collect benches send it: a root `invoke_agent` span around
 * `spansPerTrace - 1` chat spans in the GenAI conventions, with short messages.
 */
export function recordBenchTrace(tracer: Tracer, n: number, spansPerTrace: number): void {
  const rootSpan = tracer.startSpan('invoke_agent bench', { kind: SpanKind.INTERNAL, attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'bench' } });
  const ctx = traceApi.setSpan(context.active(), rootSpan);
  for (let i = 1; i < spansPerTrace; i++) {
    tracer.startSpan('chat mock-model', {
      kind: SpanKind.CLIENT,
      attributes: {
        'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'mock-model',
        'gen_ai.usage.input_tokens': 40 + i, 'gen_ai.usage.output_tokens': 12,
        'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: `Trace ${n}, step ${i}: appeals must be filed within 180 calendar days of the notice.` }] }]),
        'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: `Step ${i}: the deadline is 180 days.` }], finish_reason: 'stop' }]),
      },
    }, ctx).end();
  }
  rootSpan.end();
}
