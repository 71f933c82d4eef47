import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { stepRegistry } from '../steps/index.ts';
import { buildRunView } from '../trace/replay.ts';
import { parseRunFile } from '../trace/run-file.ts';
import { startTestCollector, type TestCollector } from '../testing/collect-fixtures.ts';
import { createMockModelServer } from '../testing/mock-server.ts';
import { instrumentOpenAI, withInstrumentedOpenAI } from '../testing/instrumented-openai.ts';
import type { ExportEncoding } from '../testing/otlp-exporters.ts';

/**
 * @opentelemetry/instrumentation-openai 0.22 puts message content in log records, not on the
 * span: a trace file of it imports with no content. Sent to the collector with its log records
 * (both exported by OpenTelemetry's own exporters), the records are joined to their span by
 * span id and the run has its messages and its reply. The client is openai 6.49 (the
 * instrumentation supports <7) calling the mock model server, as src/testing/otel-capture.ts does.
 */
let open: TestCollector | null = null;
afterEach(async () => {
  await open?.stop();
  open = null;
});

async function captureThroughCollector(encoding: ExportEncoding) {
  // A second of grace: the spans are flushed first here, and their log records after them.
  const c = (open = await startTestCollector({ rootGraceMs: 1_000 }));
  const mock = await createMockModelServer();
  try {
    return await withInstrumentedOpenAI({ url: c.collector.url, encoding, gzip: true }, async ({ openai, flush }) => {
      mock.enqueue({ content: 'Paris is the capital of France.', usage: { inputTokens: 21, outputTokens: 7 } });
      const client = new openai.OpenAI({ baseURL: `${mock.url}/v1`, apiKey: 'test-key', maxRetries: 0 });
      await client.chat.completions.create({ model: 'mock-model', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Capital of France?' }] });
      await flush('spans');
      return await c.next();
    });
  } finally {
    await mock.close();
  }
}

/** The first model call's messages and reply in a written run file. */
async function recordOf(file: string) {
  const parsed = parseRunFile(await readFile(file, 'utf8'));
  if (!parsed.ok) throw new Error(parsed.message);
  return buildRunView(parsed.file.run, parsed.file.events, stepRegistry).steps[0]?.attempts[0]?.record;
}

describe('log records joined to their spans', () => {
  it('joins records that come after their span was written to it, as a late part of the trace named after the first', async () => {
    const c = (open = await startTestCollector());
    const mock = await createMockModelServer();
    const app = instrumentOpenAI({ url: c.collector.url, encoding: 'protobuf' });
    try {
      mock.enqueue({ content: 'Paris is the capital of France.', usage: { inputTokens: 21, outputTokens: 7 } });
      const client = new app.openai.OpenAI({ baseURL: `${mock.url}/v1`, apiKey: 'test-key', maxRetries: 0 });
      await client.chat.completions.create({ model: 'mock-model', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Capital of France?' }] });
      // The spans alone, and their trace written (the grace passed) before any record is sent.
      await app.tracerProvider.forceFlush();
      const first = await c.next();
      if (!first.ok) throw new Error(first.message);
      expect([first.spans, first.logs]).toEqual([1, 0]);
      expect((await recordOf(first.path))?.messages ?? []).toEqual([]);

      await app.loggerProvider.forceFlush();
      const late = await c.next();
      if (!late.ok) throw new Error(late.message);
      expect([late.traceId, late.spans, late.logs]).toEqual([first.traceId, 0, 3]);
      expect(late.run.id).toBe(`${first.run.id}-late-2`);
      expect(late.run.chainName).toBe(`${first.run.chainName} (late spans, part 2)`);
      expect(late.warnings.join('\n')).not.toMatch(/named a span that is not in the trace/);
      const record = await recordOf(late.path);
      expect(record?.messages).toEqual([{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Capital of France?' }]);
      expect([record?.text, record?.params.model]).toEqual(['Paris is the capital of France.', 'mock-model']);
    } finally {
      await app.stop();
      await mock.close();
    }
    expect(c.collector.stats()).toMatchObject({ spansAccepted: 1, logsAccepted: 3, tracesWritten: 2, tracesNotImported: 0 });
  });

  for (const encoding of ['protobuf', 'json'] as const) {
    it(`gives instrumentation-openai's call its messages and reply (${encoding})`, async () => {
      const finished = await captureThroughCollector(encoding);
      if (!finished.ok) throw new Error(finished.message);
      // The user and system messages and the choice: three records, each joined to the one span.
      expect([finished.spans, finished.logs]).toEqual([1, 3]);
      const file = parseRunFile(await readFile(finished.path, 'utf8'));
      if (!file.ok) throw new Error(file.message);
      const view = buildRunView(file.file.run, file.file.events, stepRegistry);
      const record = view.steps[0]?.attempts[0]?.record;
      expect(record?.messages).toEqual([{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Capital of France?' }]);
      expect([record?.text, record?.finishReason, record?.usage]).toEqual(['Paris is the capital of France.', 'stop', { inputTokens: 21, outputTokens: 7 }]);
      expect(finished.warnings.join('\n')).not.toMatch(/no output text/);
    });
  }
});
