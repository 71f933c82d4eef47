import { describe, expect, it } from 'vitest';
import { readCorpus } from '../../testing/corpus.ts';
import type { RunMeta, TraceEvent } from '../events.ts';
import { buildRunView } from '../replay.ts';
import { createMemoryRunRepository } from '../repository.ts';
import { exportRunToOtlp } from './export.ts';
import { importOtlpTrace } from './import.ts';
import { engineRun } from '../../testing/otlp-runs.ts';
import { stepRegistry } from '../../steps/index.ts';

/** A minimal valid trace with one current-convention chat span, for mutating. */
function chatSpan(overrides: Record<string, unknown> = {}, attrs: { key: string; value: unknown }[] = []) {
  return {
    traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', name: 'chat gpt-4o', kind: 3,
    startTimeUnixNano: '1700000000000000000', endTimeUnixNano: '1700000001500000000',
    attributes: [
      { key: 'gen_ai.operation.name', value: { stringValue: 'chat' } },
      { key: 'gen_ai.request.model', value: { stringValue: 'gpt-4o' } },
      { key: 'gen_ai.input.messages', value: { stringValue: JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Name the capital of France.' }] }]) } },
      { key: 'gen_ai.output.messages', value: { stringValue: JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'Paris is the capital of France.' }], finish_reason: 'stop' }]) } },
      ...attrs,
    ],
    ...overrides,
  };
}
const trace = (...spans: unknown[]) => JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 't' }, spans }] }] });

function refused(text: string): string {
  const result = importOtlpTrace(text, stepRegistry);
  if (result.ok) throw new Error('expected the import to be refused');
  return result.message;
}

describe('importOtlpTrace refuses malformed and hostile files with a plain message', () => {
  it('broken JSON, the wrong top level, no spans', () => {
    expect(refused('{"resourceSpans": [')).toMatch(/^the file is not valid JSON: /);
    expect(refused('[1, 2]')).toMatch(/^this is not an OTLP\/JSON trace: it needs a top-level "resourceSpans" list/);
    expect(refused('null')).toMatch(/^this is not an OTLP\/JSON trace/);
    expect(refused('"text"')).toMatch(/^this is not an OTLP\/JSON trace/);
    expect(refused('{"resourceSpans": []}')).toBe('the trace holds no spans');
  });

  it('a 25 MB file, before parsing it', () => {
    const huge = `{"resourceSpans": [], "pad": "${'x'.repeat(25 * 1024 * 1024)}"}`;
    expect(refused(huge)).toBe('the file is 25.0 MB; trace files are limited to 20 MB');
  });

  it('deep nesting and __proto__ keys', () => {
    const deep = `{"resourceSpans": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    expect(refused(deep)).toMatch(/is nested deeper than 64 levels$/);
    expect(refused('{"resourceSpans": [{"__proto__": {"polluted": true}}]}')).toBe('resourceSpans[0].__proto__: the key "__proto__" is not allowed');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('wrong types and bad ids, naming the exact place', () => {
    expect(refused(trace(chatSpan({ spanId: 'not-hex-at-all!!' })))).toBe('the trace is malformed: resourceSpans[0].scopeSpans[0].spans[0].spanId must be 16 hex characters (OTLP/JSON ids are hex, not base64)');
    expect(refused(trace(chatSpan(), chatSpan(), chatSpan(), chatSpan({ traceId: 'C/dlGRbNQ92ESOshHIAxnA==' })))).toBe(
      'the trace is malformed: resourceSpans[0].scopeSpans[0].spans[3].traceId must be 32 hex characters (OTLP/JSON ids are hex, not base64)',
    );
    expect(refused(trace(chatSpan({ kind: 'SPAN_KIND_BOGUS' })))).toMatch(/^the trace is malformed: resourceSpans\[0\]\.scopeSpans\[0\]\.spans\[0\]\.kind must be an integer 0-5 or a span kind name \(SPAN_KIND_UNSPECIFIED, /);
    expect(refused(trace(chatSpan({ kind: 9 })))).toMatch(/spans\[0\]\.kind must be an integer 0-5 or a span kind name/);
    expect(refused(trace(chatSpan({ status: { code: 'STATUS_CODE_MAYBE' } })))).toMatch(/spans\[0\]\.status\.code must be 0, 1 or 2 or a status code name \(STATUS_CODE_UNSET, STATUS_CODE_OK, STATUS_CODE_ERROR\)$/);
    expect(refused(trace(chatSpan({ startTimeUnixNano: '2024-01-01T00:00:00Z' })))).toMatch(/spans\[0\]\.startTimeUnixNano must be a decimal string of nanoseconds$/);
    expect(refused(trace(chatSpan({ name: 42 })))).toMatch(/spans\[0\]\.name must be a string$/);
    expect(refused(trace(chatSpan({ name: undefined })))).toMatch(/spans\[0\]\.name is missing$/);
    expect(refused(JSON.stringify({ resourceSpans: { not: 'a list' } }))).toBe('the trace is malformed: resourceSpans must be an array');
    expect(refused(trace(chatSpan({ status: { code: 7 } })))).toMatch(/spans\[0\]\.status\.code must be 0, 1 or 2 or a status code name/);
  });

  it('never throws, whatever it is given', () => {
    for (const text of ['', ' ', '{}', '{"resourceSpans": null}', '{"resourceSpans": [null]}', '{"resourceSpans": [{"scopeSpans": [{"spans": [null]}]}]}', undefined as unknown as string]) {
      expect(() => importOtlpTrace(text, stepRegistry)).not.toThrow();
      expect(importOtlpTrace(text, stepRegistry).ok).toBe(false);
    }
  });

  it('a refused file leaves the store untouched: importing is pure, storing is the caller\'s step', async () => {
    const repo = createMemoryRunRepository();
    for (const text of ['{', trace(chatSpan({ spanId: 'zz' }))]) {
      const result = importOtlpTrace(text, stepRegistry);
      if (result.ok) await repo.createRun(result.run);
    }
    expect(await repo.listRuns()).toEqual([]);
  });
});

describe('importOtlpTrace on odd but valid files', () => {
  it('reads enum names as protobuf\'s standard JSON mapping writes them, and integers, the same way', () => {
    const byName = importOtlpTrace(trace(chatSpan({ kind: 'SPAN_KIND_CLIENT', status: { code: 'STATUS_CODE_ERROR', message: 'boom' } })), stepRegistry);
    const byNumber = importOtlpTrace(trace(chatSpan({ kind: 3, status: { code: 2, message: 'boom' } })), stepRegistry);
    if (!byName.ok || !byNumber.ok) throw new Error('expected both to import');
    // The run ids differ (they hash the file's text); everything the replay reads is the same.
    expect(buildRunView(byName.run, byName.events, stepRegistry).steps).toEqual(buildRunView(byNumber.run, byNumber.events, stepRegistry).steps);
    expect(byName.run).toMatchObject({ status: 'failed', error: 'chat_gpt_4o: boom' });
    const ok = importOtlpTrace(trace(chatSpan({ kind: 'SPAN_KIND_INTERNAL', status: { code: 'STATUS_CODE_OK' } })), stepRegistry);
    expect(ok).toMatchObject({ ok: true, run: { status: 'succeeded' } });
  });

  it('survives parent loops and prototype-named attribute keys', () => {
    const a = chatSpan({ spanId: 'aaaaaaaaaaaaaaaa', parentSpanId: 'bbbbbbbbbbbbbbbb' }, [{ key: 'constructor', value: { stringValue: 'x' } }, { key: 'toString', value: { intValue: '1' } }]);
    const b = { ...chatSpan({ spanId: 'bbbbbbbbbbbbbbbb', parentSpanId: 'aaaaaaaaaaaaaaaa', name: 'invoke_agent helper' }), attributes: [{ key: 'gen_ai.operation.name', value: { stringValue: 'invoke_agent' } }] };
    const result = importOtlpTrace(trace(a, b), stepRegistry);
    if (!result.ok) throw new Error(result.message);
    expect(result.run.chain).toMatchObject({ steps: [{ id: 'chat_gpt_4o' }] });
    expect(result.warnings).toEqual(['1 span(s) that are not LLM calls made no step (they are in the span tree): "invoke_agent helper"']);
    // Two LLM spans that claim each other as parent are both kept: the links, not the calls, are wrong.
    const c = { ...a, spanId: 'bbbbbbbbbbbbbbbb', parentSpanId: 'aaaaaaaaaaaaaaaa' };
    const loop = importOtlpTrace(trace(a, c), stepRegistry);
    expect(loop.ok && (loop.run.chain as { steps: unknown[] }).steps).toHaveLength(2);
  });

  it('an errored span becomes a failed step and a failed run', () => {
    const result = importOtlpTrace(trace(chatSpan({ status: { code: 2, message: 'rate limited' } })), stepRegistry);
    if (!result.ok) throw new Error(result.message);
    const [step] = buildRunView(result.run, result.events, stepRegistry).steps;
    expect(step).toMatchObject({ status: 'failed', failure: { code: 'provider_error', message: 'rate limited' } });
    expect(step?.attempts[0]?.record).toMatchObject({ failure: 'provider_error', errors: ['rate limited'] });
    expect(result.run).toMatchObject({ status: 'failed', error: 'chat_gpt_4o: rate limited' });
  });

  it('infers a read when one call\'s output text is in the next call\'s input, and shows the boundary', () => {
    const second = chatSpan({ spanId: 'cccccccccccccccc', name: 'chat gpt-4o', startTimeUnixNano: '1700000002000000000', endTimeUnixNano: '1700000003000000000' }, []);
    second.attributes[2] = { key: 'gen_ai.input.messages', value: { stringValue: JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Translate to German: Paris is the capital of France. Keep {tone} literal.' }] }]) } };
    second.attributes[3] = { key: 'gen_ai.output.messages', value: { stringValue: JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'Paris ist die Hauptstadt Frankreichs.' }], finish_reason: 'stop' }]) } };
    const result = importOtlpTrace(trace(second, chatSpan()), stepRegistry);
    if (!result.ok) throw new Error(result.message);
    const view = buildRunView(result.run, result.events, stepRegistry);
    expect(view.steps.map((s) => s.stepId)).toEqual(['chat_gpt_4o', 'chat_gpt_4o_2']);
    expect(view.boundaries).toMatchObject([{ producer: 'chat_gpt_4o', consumer: 'chat_gpt_4o_2', binding: 'chat_gpt_4o', intermediate: 'Paris is the capital of France.' }]);
    const steps = (result.run.chain as { steps: { config: { prompt: string } }[] }).steps;
    // The read becomes a placeholder again; recorded braces that look like one are spaced out.
    expect(steps[1]?.config.prompt).toBe('Translate to German: {chat_gpt_4o} Keep { tone } literal.');
  });

  it('a Seamscope export with a broken embedded chain still imports, with a warning', async () => {
    const { meta, events }: { meta: RunMeta; events: TraceEvent[] } = await engineRun([{ facts: ['a fact here'] }, { answer: 'An answer.' }]);
    const text = JSON.stringify(exportRunToOtlp({ ...meta, chain: { format: 'seamscope.chain', version: 1, steps: 'nope' } }, events));
    const result = importOtlpTrace(text, stepRegistry);
    if (!result.ok) throw new Error(result.message);
    expect(result.warnings[0]).toMatch(/^the chain inside the export is not valid \(\$\.id: .*\); the steps were rebuilt from the recorded calls$/);
    expect(buildRunView(result.run, result.events, stepRegistry).steps.map((s) => [s.stepId, s.kind])).toEqual([['extract', 'model'], ['answer', 'model'], ['final', 'unknown']]);
  });

  it('the corpus copies are valid OTLP as shipped', () => {
    expect(importOtlpTrace(readCorpus('traces/otlp/otlp-proto-example-trace.json'), stepRegistry).ok).toBe(false);
  });
});
