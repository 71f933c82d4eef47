import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { context, SpanKind, trace as traceApi, TraceFlags } from '@opentelemetry/api';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { parseRunFile } from '../trace/run-file.ts';
import { recordAgentTrace, startTestCollector, type TestCollector } from '../testing/collect-fixtures.ts';
import { otlpTraceExporter } from '../testing/otlp-exporters.ts';

/**
 * Spans of a trace that arrive after the trace was finished and written (its root ended and the
 * grace passed) are neither lost nor merged into the file already written: they become a second
 * run file of that trace, named after the first.
 */
let open: TestCollector | null = null;
afterEach(async () => {
  await open?.stop();
  open = null;
});

/** Sends spans through OpenTelemetry's own exporter, as an application would, and waits until they are sent. */
async function send(url: string, record: (provider: TracerProvider) => void): Promise<void> {
  const provider = new TracerProvider({ spanProcessors: [new BatchSpanProcessor({ exporter: otlpTraceExporter({ url, encoding: 'protobuf' }) })] });
  record(provider);
  await provider.forceFlush();
  await provider.shutdown();
}

/** A chat span of the trace, child of a span of its first part, ended after that part was written. */
function lateChat(provider: TracerProvider, traceId: string, answer: string): void {
  const parent = traceApi.setSpanContext(context.active(), { traceId, spanId: 'ab'.repeat(8), traceFlags: TraceFlags.SAMPLED });
  provider.getTracer('seamscope-test').startSpan('chat mock-model', {
    kind: SpanKind.CLIENT,
    attributes: {
      'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'mock-model',
      'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Anything else?' }] }]),
      'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: answer }], finish_reason: 'stop' }]),
    },
  }, parent).end();
}

describe('seamscope collect and late spans', () => {
  it('writes spans that come after their trace was written as a second (then third) run file named after the first', async () => {
    open = await startTestCollector();
    const c = open;
    let traceId = '';
    await send(c.collector.url, (p) => {
      traceId = recordAgentTrace(p.getTracer('seamscope-test'));
    });
    const first = await c.next();
    if (!first.ok) throw new Error(first.message);
    const firstText = await readFile(first.path, 'utf8');

    await send(c.collector.url, (p) => lateChat(p, traceId, 'A late answer.'));
    const second = await c.next();
    if (!second.ok) throw new Error(second.message);
    expect(second).toMatchObject({ traceId, spans: 1 });
    expect(second.run.id).toBe(`${first.run.id}-late-2`);
    expect(path.basename(second.path)).toBe(`${first.run.id}-late-2.run.json`);
    expect(second.run.chainName).toBe(`${first.run.chainName} (late spans, part 2)`);
    const late = parseRunFile(await readFile(second.path, 'utf8'));
    if (!late.ok) throw new Error(late.message);
    expect(JSON.stringify(late.file)).toContain('A late answer.');
    // The first file is left as it was written.
    expect(await readFile(first.path, 'utf8')).toBe(firstText);

    await send(c.collector.url, (p) => lateChat(p, traceId, 'Later still.'));
    const third = await c.next();
    if (!third.ok) throw new Error(third.message);
    expect(path.basename(third.path)).toBe(`${first.run.id}-late-3.run.json`);
    expect((await c.files()).sort()).toEqual([`${first.run.id}-late-2.run.json`, `${first.run.id}-late-3.run.json`, `${first.run.id}.run.json`].sort());
    expect(c.collector.stats()).toMatchObject({ spansAccepted: 5, tracesWritten: 3 });
  });
});
