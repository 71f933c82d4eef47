import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { context, SpanKind, trace as traceApi, type Tracer } from '@opentelemetry/api';
import { startCollector, type Collector, type CollectorLimits, type FinishedTrace } from '../collect/index.ts';

/**
 * A collector on a free 127.0.0.1 port writing into a fresh temporary folder, with its finished
 * traces as promises, for tests and the battery. `stop()` closes it and removes the folder.
 */
export interface TestCollector {
  collector: Collector;
  dir: string;
  /** The next finished trace (in the order they finish). */
  next(): Promise<FinishedTrace>;
  /** Every finished trace so far. */
  finished: FinishedTrace[];
  /** The run files written so far. */
  files(): Promise<string[]>;
  stop(): Promise<void>;
}

export const TEST_KEY = 'sk-test-collect-0123456789abcdef';

export async function startTestCollector(limits: Partial<CollectorLimits> = {}): Promise<TestCollector> {
  const dir = await mkdtemp(path.join(tmpdir(), 'seamscope-collect-'));
  const finished: FinishedTrace[] = [];
  const waiting: ((t: FinishedTrace) => void)[] = [];
  let taken = 0;
  const collector = await startCollector({
    port: 0, dir, keys: [TEST_KEY],
    // Quick to finish, so a test waits milliseconds, not the 1 s grace of the command.
    limits: { rootGraceMs: 30, idleMs: 2_000, ...limits }, tickMs: 10,
    onTrace: (t) => {
      finished.push(t);
      waiting.shift()?.(t);
    },
  });
  return {
    collector, dir, finished,
    next: () => {
      const ready = finished[taken];
      taken++;
      return ready ? Promise.resolve(ready) : new Promise((resolve) => waiting.push(resolve));
    },
    files: async () => (await readdir(dir)).filter((f) => f.endsWith('.run.json')),
    stop: async () => {
      await collector.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * One agent trace made through the OpenTelemetry API: an `invoke_agent` root around two chat
 * calls in the current GenAI conventions (messages as JSON strings), the second reading the
 * first's answer. A header-shaped key rides along in an attribute, to be scrubbed.
 */
export function recordAgentTrace(tracer: Tracer, tag = 'A'): string {
  // Times given, so the calls are ordered whatever the clock's resolution.
  const t0 = Date.now();
  const root = tracer.startSpan('invoke_agent support', { kind: SpanKind.INTERNAL, startTime: t0, attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'support' } });
  const ctx = traceApi.setSpan(context.active(), root);
  const source = `Appeal ${tag}: a request must be filed within 180 calendar days; a decision follows within 72 hours.`;
  const summary = 'Appeals have a deadline and a quick decision.';
  const chat = (at: number, input: string, output: string) => {
    const span = tracer.startSpan('chat mock-model', {
      kind: SpanKind.CLIENT, startTime: t0 + at,
      attributes: {
        'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'mock-model',
        'gen_ai.usage.input_tokens': 20, 'gen_ai.usage.output_tokens': 8,
        'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: input }] }]),
        'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: output }], finish_reason: 'stop' }]),
        'http.request.header.authorization': `Bearer ${TEST_KEY}`,
      },
    }, ctx);
    span.end(t0 + at + 1);
  };
  chat(1, `Summarise: ${source}`, summary);
  chat(3, `Using this summary, how many days to appeal? ${summary}`, 'The summary does not say.');
  root.end(t0 + 5);
  return root.spanContext().traceId;
}
