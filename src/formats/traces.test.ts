import { describe, expect, it } from 'vitest';
import { readCorpus } from '../testing/corpus.ts';
import { engineRun } from '../testing/otlp-runs.ts';
import { stepRegistry } from '../steps/index.ts';
import { toRunFile } from '../trace/run-file.ts';
import { exportRunToOtlp } from '../trace/otlp/export.ts';
import { importTraceText, traceFormatOf } from './traces.ts';

describe('importTraceText detects the format from the content', () => {
  it('a run file (with "format" anywhere), an OTLP trace, a Langfuse export', async () => {
    const { meta, events } = await engineRun([{ facts: ['appeals within 180 days'] }, { answer: 'Within 180 days.' }]);
    const { format, ...rest } = toRunFile(meta, events);
    const reordered = JSON.stringify({ ...rest, format });
    expect(importTraceText(reordered, stepRegistry)).toMatchObject({ ok: true, format: 'seamscope-run', run: { id: meta.id }, warnings: [] });
    expect(importTraceText(JSON.stringify(exportRunToOtlp(meta, events)), stepRegistry)).toMatchObject({ ok: true, format: 'otlp-json' });
    expect(importTraceText(readCorpus('vendor-traces/langfuse-export-pydantic-ai-2025-06-06.trace.json'), stepRegistry)).toMatchObject({ ok: true, format: 'langfuse-export' });
  });

  it('names the format of a file it refuses when it can tell, in that reader\'s words', async () => {
    const { meta, events } = await engineRun([{ facts: ['a fact here'] }, { answer: 'An answer.' }]);
    const damaged = JSON.stringify(toRunFile(meta, events), null, 2).replace('"status": "succeeded"', '"status": "failed", "status": "succeeded"');
    expect(importTraceText(damaged, stepRegistry)).toMatchObject({ ok: false, format: 'seamscope-run', message: expect.stringContaining('$.run.status') });
    expect(importTraceText('{"resourceSpans": []}', stepRegistry)).toEqual({ ok: false, format: 'otlp-json', message: 'the trace holds no spans' });
    expect(importTraceText('{"trace": {"id": "t"}, "observations": []}', stepRegistry)).toEqual({ ok: false, format: 'langfuse-export', message: 'the Langfuse export holds no observations' });
  });

  it('refuses anything else with one message listing what it reads', () => {
    for (const text of ['[]', '{"spans": []}', '"x"', '{"format": "seamscope.chain"}']) {
      expect(importTraceText(text, stepRegistry)).toMatchObject({ ok: false, format: null, message: expect.stringMatching(/^this is not a trace Seamscope reads: expected a Seamscope run file .*, an OTLP\/JSON trace .* or a Langfuse trace export/) });
    }
    expect(importTraceText('{', stepRegistry)).toMatchObject({ ok: false, format: null, message: expect.stringMatching(/^the file is not valid JSON/) });
    expect(traceFormatOf(null)).toBeNull();
  });
});
